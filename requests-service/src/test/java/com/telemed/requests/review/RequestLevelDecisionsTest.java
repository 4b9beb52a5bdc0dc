package com.telemed.requests.review;

import static com.telemed.testkit.quarkus.ServiceDatabase.count;
import static com.telemed.testkit.quarkus.ServiceDatabase.texts;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.common.error.ApiException;
import com.telemed.requests.FakeNeighbours;
import com.telemed.requests.FakeNeighboursResource;
import com.telemed.requests.request.PendingRequest;
import com.telemed.requests.request.RequestFixtures;
import com.telemed.requests.request.RequestEvents;
import com.telemed.testkit.kafka.TopicReader;
import com.telemed.testkit.quarkus.InfrastructureResource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link RequestLevelDecisions} called directly: the request-level decisions of the
 * single-prescription flow, their state, history entries and legacy events, on a request with its
 * one item and on a consultation request without items.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(FakeNeighboursResource.class)
class RequestLevelDecisionsTest {

    @Inject
    FakeNeighbours neighbours;

    @Inject
    RequestLevelDecisions decisions;

    PendingRequest pending;

    @BeforeEach
    void setUp() {
        neighbours.reset();
        pending = PendingRequest.create(neighbours, "Grace", "Hopper");
    }

    private static List<String> history(String requestId) {
        return texts("SELECT action FROM history_entries WHERE request_id = ? ORDER BY at, action", UUID.fromString(requestId));
    }

    /** The request's events on care.events: exactly {@code expected} of them (a settle period shows no more). */
    private static List<String> events(String requestId, int expected) {
        return TopicReader.types(envelopes(requestId, expected));
    }

    private static List<ConsumerRecord<String, String>> envelopes(String requestId, int expected) {
        return TopicReader.readKey(TopicReader.configuredBootstrapServers(), RequestEvents.TOPIC,
                requestId, expected, Duration.ofSeconds(30));
    }

    private String consultationRequest() {
        return RequestFixtures.created(pending.partner(), RequestFixtures.consultation(pending.memberId()));
    }

    @Test
    void denyingARequestWithOneItemDeniesTheItemWithTheLegacyEvent() {
        ReviewViews.Outcome outcome = decisions.deny(pending.requestId(), pending.prescriberId(), "not suitable", false);
        assertEquals("denied", outcome.request().storedStatus());
        assertEquals("denied", outcome.request().lineItems().get(0).status());
        assertEquals(UUID.fromString(pending.prescriberId()), outcome.request().prescriberId());
        assertNull(outcome.prescriptionRecord());
        assertNull(outcome.booking());
        assertEquals(List.of("created", "denied"), history(pending.requestId()));
        List<ConsumerRecord<String, String>> denied = envelopes(pending.requestId(), 1);
        assertEquals(List.of("request.denied"), TopicReader.types(denied));
        assertFalse(TopicReader.json(denied.get(0)).get("data").has("action"), denied.get(0).value());

        ApiException again = assertThrows(ApiException.class,
                () -> decisions.deny(pending.requestId(), pending.prescriberId(), null, true));
        assertEquals(400, again.status());
        assertEquals("Request status is 'denied', expected 'pending'", again.getMessage());
    }

    @Test
    void aVisitWithoutAPrescriptionEndsARequestWithoutItemsAsAWhole() {
        String requestId = consultationRequest();
        ReviewViews.Outcome outcome = decisions.deny(requestId, pending.prescriberId(), "no prescription needed", true);
        assertEquals("denied", outcome.request().storedStatus());
        assertEquals(List.of(), outcome.request().lineItems());
        assertEquals(List.of("created", "completed_without_rx"), history(requestId));
        // messaging tells this end of a visit from a denial by the event's internal data.
        List<ConsumerRecord<String, String>> denied = envelopes(requestId, 1);
        assertEquals(List.of("request.denied"), TopicReader.types(denied));
        assertEquals("completed_without_rx", TopicReader.json(denied.get(0)).get("data").get("action").asText());
        assertEquals(0, count("SELECT count(*) FROM line_items WHERE request_id = ?", UUID.fromString(requestId)));
    }

    @Test
    void aConsultationOfARequestWithoutItemsIssuesABookingLinkAndKeepsItPending() {
        String requestId = consultationRequest();
        ReviewViews.Outcome outcome = decisions.requestConsultation(requestId, pending.prescriberId());
        assertEquals("pending", outcome.request().storedStatus());
        assertTrue(outcome.booking().bookingUrl().startsWith("http://localhost:8080/book/"), outcome.booking().bookingUrl());
        assertEquals(List.of("created", "call_requested"), history(requestId));
        assertEquals(1, count("SELECT count(*) FROM consultations WHERE request_id = ? AND item_id IS NULL",
                UUID.fromString(requestId)));
    }

    @Test
    void approvingARequestWithoutItemsNeedsTheDrugChosenNow() {
        String requestId = consultationRequest();
        ApiException refused = assertThrows(ApiException.class, () -> decisions.approve(requestId,
                new ReviewInput.RequestApproval(pending.prescriberId(), null, null)));
        assertEquals(400, refused.status());
        assertEquals("drugId is required to approve a request without items", refused.getMessage());
        assertEquals(List.of("created"), history(requestId));
    }

    @Test
    void anotherDrugThanTheRequestsItemIsRefusedBeforeTheCatalogueIsAsked() {
        neighbours.clearCalls();
        ApiException refused = assertThrows(ApiException.class, () -> decisions.approve(pending.requestId(),
                new ReviewInput.RequestApproval(pending.prescriberId(), "another-drug", null)));
        assertEquals(400, refused.status());
        assertEquals("drugId does not match the request's item: another-drug", refused.getMessage());
        assertFalse(neighbours.calls().stream().anyMatch(FakeNeighbours::toCatalogue));
    }
}
