package com.telemed.requests.review;

import static com.telemed.testkit.quarkus.ServiceDatabase.count;
import static com.telemed.testkit.quarkus.ServiceDatabase.texts;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.IntNode;
import com.telemed.common.error.ApiException;
import com.telemed.requests.FakeNeighbours;
import com.telemed.requests.FakeNeighboursResource;
import com.telemed.requests.request.PendingRequest;
import com.telemed.requests.request.RequestFixtures;
import com.telemed.requests.request.RequestEvents;
import com.telemed.testkit.kafka.TopicReader;
import com.telemed.testkit.quarkus.InfrastructureResource;
import com.telemed.testkit.quarkus.ServiceDatabase;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.awaitility.Awaitility;
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

    /**
     * A decision PostgreSQL aborts to end a deadlock runs again whole ({@code DrugReads}). This test's own
     * transaction holds the partner's {@code pending} totals row; the approval of a request without items
     * locks the request, adds its item and, moving the request from pending to approved, waits for that
     * row; then this transaction asks for the request's row. PostgreSQL aborts one of the two: the approval,
     * which waited first and so checks first, unless this machine stalls past the check (then this
     * transaction is the one aborted, and the round is tried again with a new request). The approval then
     * runs again after this transaction commits and is answered as a single run would be: one item,
     * approved, one prescription, one history entry and one event.
     */
    @Test
    void anApprovalAbortedAsADeadlocksVictimRunsAgainWhole() throws Exception {
        for (int round = 1; ; round++) {
            String requestId = consultationRequest();
            UUID request = UUID.fromString(requestId);
            CompletableFuture<ReviewViews.Outcome> approval;
            try (Connection other = ServiceDatabase.connect()) {
                other.setAutoCommit(false);
                assertEquals(1, lockedRows(other, "SELECT 1 FROM request_list_totals WHERE partner_id = ? AND status = 'pending'"
                        + " FOR UPDATE", pending.partner()));
                int otherPid = backendPid(other);
                CompletableFuture<ReviewViews.Outcome> started = CompletableFuture.supplyAsync(() -> decisions.approve(requestId,
                        new ReviewInput.RequestApproval(pending.prescriberId(), pending.drugId(), new ReviewInput.Prescription(
                                FakeNeighbours.skuId(pending.drugId(), 0), IntNode.valueOf(4), null, 30, "Inject weekly", 0,
                                false, null, null))));
                approval = started;
                Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> started.isDone()
                        || count("SELECT count(*) FROM pg_stat_activity WHERE ? = ANY (pg_blocking_pids(pid))", otherPid) == 1);
                assertFalse(started.isDone(), () -> "the approval did not wait for the totals row: " + started);
                try {
                    // Waits until PostgreSQL has aborted the approval, which held this row.
                    assertEquals(1, lockedRows(other, "SELECT 1 FROM requests WHERE id = ? FOR UPDATE", request));
                } catch (SQLException victim) {
                    assertEquals("40P01", victim.getSQLState(), victim.getMessage());
                    other.rollback();
                    approval.get(60, TimeUnit.SECONDS);
                    assertTrue(round < 3, "this transaction, not the approval, was the deadlock's victim three times");
                    continue;
                }
                other.commit();
            }
            ReviewViews.Outcome outcome = approval.get(60, TimeUnit.SECONDS);
            assertEquals("approved", outcome.request().storedStatus());
            assertEquals(1, outcome.request().lineItems().size());
            assertEquals("approved", outcome.request().lineItems().get(0).status());
            assertEquals(1, count("SELECT count(*) FROM line_items WHERE request_id = ?", request));
            assertEquals(1, count("SELECT count(*) FROM prescription_records WHERE request_id = ?", request));
            // Fulfilment goes on after the approval (sent_to_pharmacy, its own events): the decision's own are counted.
            assertEquals(List.of("created", "approved"), history(requestId).subList(0, 2));
            assertEquals(1, count("SELECT count(*) FROM history_entries WHERE request_id = ? AND action = 'approved'", request));
            TopicReader.readExactly(TopicReader.configuredBootstrapServers(), RequestEvents.TOPIC,
                    record -> requestId.equals(record.key()) && "request.approved".equals(TopicReader.json(record).path("type").asText()),
                    1, Duration.ofSeconds(30));
            return;
        }
    }

    private static int lockedRows(Connection connection, String sql, Object parameter) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setObject(1, parameter);
            int rows = 0;
            try (ResultSet result = statement.executeQuery()) {
                while (result.next()) {
                    rows++;
                }
            }
            return rows;
        }
    }

    private static int backendPid(Connection connection) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement("SELECT pg_backend_pid()");
             ResultSet result = statement.executeQuery()) {
            result.next();
            return result.getInt(1);
        }
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
