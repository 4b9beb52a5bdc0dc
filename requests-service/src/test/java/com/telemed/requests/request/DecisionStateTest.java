package com.telemed.requests.request;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.common.error.ApiException;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The state changes a prescriber's decision makes on a request and its items, as methods of the
 * entities: plain objects here, nothing persisted.
 */
class DecisionStateTest {

    private static final Instant CREATED = Instant.parse("2026-11-20T10:00:00Z");
    private static final Instant AT = Instant.parse("2026-11-24T09:30:00Z");
    private static final UUID PRESCRIBER = UUID.randomUUID();

    private static Request request(String status) {
        Request request = new Request();
        request.id = UUID.randomUUID();
        request.status = status;
        request.updatedAt = CREATED;
        return request;
    }

    private static LineItem item(String status) {
        LineItem item = new LineItem();
        item.id = UUID.randomUUID();
        item.status = status;
        item.updatedAt = CREATED;
        return item;
    }

    @Test
    void anUndecidedItemIsPendingOrUnderARequestedConsultation() {
        item(ItemStatus.PENDING).requireUndecided();
        item(ItemStatus.CALL_REQUESTED).requireUndecided();
        for (String decided : List.of(ItemStatus.APPROVED, ItemStatus.DENIED, ItemStatus.CANCELLED, ItemStatus.COMPLETED)) {
            ApiException refused = assertThrows(ApiException.class, () -> item(decided).requireUndecided());
            assertEquals(400, refused.status());
            assertEquals("Item status is '" + decided + "', expected 'pending' or 'call_requested'", refused.getMessage());
        }
    }

    @Test
    void aConsultationIsRequestedOfAPendingItemOnly() {
        item(ItemStatus.PENDING).requirePending();
        ApiException refused = assertThrows(ApiException.class, () -> item(ItemStatus.CALL_REQUESTED).requirePending());
        assertEquals(400, refused.status());
        assertEquals("Item status is 'call_requested', expected 'pending'", refused.getMessage());
    }

    @Test
    void requestLevelDecisionsNeedAPendingRequest() {
        request(RequestStatus.PENDING).requirePending();
        ApiException refused = assertThrows(ApiException.class, () -> request(ItemStatus.DENIED).requirePending());
        assertEquals(400, refused.status());
        assertEquals("Request status is 'denied', expected 'pending'", refused.getMessage());
    }

    @Test
    void theFirstPrescriberToActSetsTheProviderLaterOnesOnlyTheAssignment() {
        Request request = request(RequestStatus.PENDING);
        request.actedOnBy(PRESCRIBER, "provider-a");
        assertEquals(PRESCRIBER, request.prescriberId);
        assertEquals("provider-a", request.providerId);
        UUID second = UUID.randomUUID();
        request.actedOnBy(second, "provider-b");
        assertEquals(second, request.prescriberId);
        assertEquals("provider-a", request.providerId);
    }

    @Test
    void aDecidedItemMovesAndTheRequestsStoredStatusFollowsAllItems() {
        Request request = request(RequestStatus.PENDING);
        request.consultationOpen = true;
        LineItem approved = item(ItemStatus.PENDING);
        approved.decide(ItemStatus.APPROVED, PRESCRIBER, AT);
        assertEquals(ItemStatus.APPROVED, approved.status);
        assertEquals(PRESCRIBER, approved.prescriberId);
        assertEquals(AT, approved.updatedAt);

        request.followItems(List.of(approved), ItemStatus.APPROVED, AT);
        assertEquals(RequestStatus.stored(List.of(ItemStatus.APPROVED)), request.status);
        assertFalse(request.consultationOpen, "a decision closes an open consultation");
        assertEquals(AT, request.updatedAt);
    }

    @Test
    void aRequestedConsultationLeavesTheConsultationAsItWas() {
        Request request = request(RequestStatus.PENDING);
        request.consultationOpen = true;
        LineItem item = item(ItemStatus.PENDING);
        item.decide(ItemStatus.CALL_REQUESTED, PRESCRIBER, AT);
        request.followItems(List.of(item), ItemStatus.CALL_REQUESTED, AT);
        assertTrue(request.consultationOpen);
        assertEquals(RequestStatus.stored(List.of(ItemStatus.CALL_REQUESTED)), request.status);
    }

    @Test
    void aRequestWithoutItemsIsDeniedOrGivenAConsultationAsAWhole() {
        Request denied = request(RequestStatus.PENDING);
        denied.consultationOpen = true;
        denied.denyWithoutItems(AT);
        assertEquals(ItemStatus.DENIED, denied.status);
        assertFalse(denied.consultationOpen);
        assertEquals(AT, denied.updatedAt);

        Request consulted = request(RequestStatus.PENDING);
        consulted.openConsultation(AT);
        assertTrue(consulted.consultationOpen);
        assertEquals(RequestStatus.PENDING, consulted.status);
        assertEquals(AT, consulted.updatedAt);
    }

    @Test
    void anItemAddedByThePrescriberClosesTheConsultationRequest() {
        Request request = request(RequestStatus.PENDING);
        request.consultationOpen = true;
        request.itemAddedByPrescriber();
        assertEquals(1, request.itemCount);
        assertTrue(request.hasItems());
        assertFalse(request.consultationOpen);
    }

    @Test
    void aChosenSkuIsKeptForSigning() {
        LineItem item = item(ItemStatus.PENDING);
        assertNull(item.selectedSkuId);
        item.selectSku("sku-2", AT);
        assertEquals("sku-2", item.selectedSkuId);
        assertEquals(AT, item.updatedAt);
        assertEquals(ItemStatus.PENDING, item.status);
    }
}
