package com.telemed.requests.request;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** partner-api.md "Request-level status" with decisions.md "Requests" (cancelled items ignored). */
class RequestStatusTest {

    private static Request stored(String status) {
        Request request = new Request();
        request.status = status;
        return request;
    }

    private static List<String> items(String statuses) {
        return statuses.isEmpty() ? List.of() : List.of(statuses.split(" "));
    }

    @ParameterizedTest(name = "[{0}] computed {1}, stored {2}")
    @CsvSource(delimiter = '|', value = {
            "pending|pending|pending",
            "call_requested|call_requested|pending",
            "pending call_requested|call_requested|pending",
            "approved pending|pending|pending",
            "denied|denied|denied",
            "denied denied|denied|denied",
            "completed|completed|completed",
            "completed completed|completed|completed",
            "approved|approved|approved",
            "approved approved|approved|approved",
            "approved completed|completed|completed",
            "approved denied|partial|partial",
            "completed denied|partial|partial",
            "approved cancelled|approved|approved",
            "denied cancelled|denied|denied",
            "pending cancelled|pending|pending",
            "cancelled|cancelled|cancelled",
            "cancelled cancelled|cancelled|cancelled",
    })
    void computedAndStored(String statuses, String computed, String storedStatus) {
        assertEquals(computed, RequestStatus.computed(stored("pending"), items(statuses)));
        assertEquals(storedStatus, RequestStatus.stored(items(statuses)));
    }

    @Test
    void requestWithoutItemsShowsItsStoredStatus() {
        assertEquals("pending", RequestStatus.computed(stored("pending"), List.of()));
        assertEquals("denied", RequestStatus.computed(stored("denied"), List.of()));
        Request consultation = stored("pending");
        consultation.consultationOpen = true;
        assertEquals("call_requested", RequestStatus.computed(consultation, List.of()));
    }

    @ParameterizedTest(name = "[{0}] -> {1}")
    @CsvSource(delimiter = '|', value = {
            "pending|1 drug - 1 pending",
            "cancelled|1 drug - 1 cancelled",
            "approved denied approved|3 drug - 2 approved, 1 denied",
            "pending cancelled|2 drug - 1 pending, 1 cancelled",
    })
    void summary(String statuses, String summary) {
        assertEquals(summary, RequestStatus.summary(items(statuses)));
    }

    @Test
    void summaryOfNoItems() {
        assertEquals("No items", RequestStatus.summary(List.of()));
    }

    @Test
    void decidedIgnoresCancelledItems() {
        assertTrue(RequestStatus.decided(List.of("approved", "cancelled")));
        assertTrue(RequestStatus.decided(List.of("denied")));
        assertFalse(RequestStatus.decided(List.of("pending", "approved")));
        assertFalse(RequestStatus.decided(List.of("call_requested")));
        assertFalse(RequestStatus.decided(List.of("cancelled")));
        assertFalse(RequestStatus.decided(List.of()));
    }
}
