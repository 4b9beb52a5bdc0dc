package com.telemed.requests.fulfilment;

import static com.telemed.requests.fulfilment.Fulfilled.approve;
import static com.telemed.requests.fulfilment.Fulfilled.held;
import static com.telemed.requests.fulfilment.Fulfilled.history;
import static com.telemed.requests.fulfilment.Fulfilled.mode;
import static com.telemed.requests.fulfilment.Fulfilled.read;
import static com.telemed.requests.fulfilment.Fulfilled.recordStatus;
import static com.telemed.requests.fulfilment.Fulfilled.send;
import static com.telemed.requests.fulfilment.Fulfilled.sent;
import static com.telemed.requests.fulfilment.Fulfilled.stored;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.requests.FakeNeighbours;
import com.telemed.requests.FakeNeighboursResource;
import com.telemed.requests.prescription.Tampering;
import com.telemed.requests.request.PendingRequest;
import com.telemed.requests.request.RequestFixtures;
import com.telemed.testkit.http.FakeNeighbour;
import com.telemed.testkit.quarkus.InfrastructureResource;
import com.telemed.testkit.quarkus.ServiceDatabase;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.postgresql.util.PSQLException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Transmission modes, send-to-pharmacy and its holds against the sandbox pharmacy (the test
 * profile's deployment is a sandbox): partner-api.md, "Pharmacy transmission modes" and
 * send-to-pharmacy. members-service and messaging-service are {@link FakeNeighbours}; the real
 * services are exercised end to end by the e2e module.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(FakeNeighboursResource.class)
class SendToPharmacyTest {

    private static final String ORDER_ID = "^ord_[0-9a-f]{24}$";
    private static final String TIMESTAMP = "^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z$";
    private static final String SANDBOX_NOTE = "Sandbox deployment: the order went to the sandbox pharmacy";
    private static final Duration DISPATCH = Duration.ofSeconds(15);

    @Inject
    FakeNeighbours neighbours;

    PendingRequest pending;

    @BeforeEach
    void setUp() {
        neighbours.reset();
        pending = PendingRequest.create(neighbours, "Grace", "Hopper");
    }

    @AfterEach
    void heal() {
        neighbours.reset();
    }

    private PendingRequest deferredAndApproved() {
        mode(pending.partner(), "deferred").then().statusCode(200).body("mode", equalTo("deferred"));
        approve(pending).then().statusCode(200);
        return pending;
    }

    private static Map<String, Object> answer(boolean success, String method, List<String> warnings, String error) {
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("success", success);
        answer.put("method", method);
        answer.put("warnings", warnings);
        if (error != null) {
            answer.put("error", error);
        }
        return answer;
    }

    private static void assertAnswer(Response response, Map<String, Object> expected) {
        response.then().statusCode(200);
        assertEquals(expected, response.jsonPath().getMap(""));
    }

    private static void assertHeld(Response response, String method, String error) {
        assertAnswer(response, answer(false, method, List.of(error), error));
    }

    @Test
    void automaticApprovalIsTransmittedOnceAfterItCommits() {
        approve(pending).then().statusCode(200).body("prescriptionRecord.status", equalTo("issued"));
        await().atMost(DISPATCH).until(() -> sent(pending));
        read(pending).then()
                .body("lineItems[0].status", equalTo("approved"))
                .body("lineItems[0].pharmacySentAt", matchesPattern(TIMESTAMP))
                .body("lineItems[0].prescriptionRecord.status", equalTo("sent_to_pharmacy"))
                .body("lineItems[0].prescriptionRecord.pharmacyOrderId", matchesPattern(ORDER_ID))
                .body("lineItems[0].prescriptionRecord.sentToPharmacyAt", matchesPattern(TIMESTAMP));
        assertEquals(List.of("created api", "approved " + pending.prescriberId(), "sent_to_pharmacy service"), history(pending));
        Map<String, Object> stored = stored(pending);
        assertNull(stored.get("transmit_due_at"));
        assertNull(stored.get("transmission_claim"));
        send(pending).then().statusCode(400).body("error", equalTo("This item has already been sent to pharmacy"));
    }

    @Test
    void deferredAccountsTransmitOnlyWhenThePartnerAsks() {
        deferredAndApproved();
        assertNull(stored(pending).get("transmit_due_at"), "nothing is due on a deferred account");
        assertFalse(sent(pending));
        assertEquals("issued", recordStatus(pending));

        assertAnswer(send(pending), answer(true, "email", List.of(SANDBOX_NOTE), null));
        read(pending).then()
                .body("lineItems[0].pharmacySent", equalTo(true))
                .body("lineItems[0].pharmacySentAt", matchesPattern(TIMESTAMP))
                .body("lineItems[0].prescriptionRecord.status", equalTo("sent_to_pharmacy"))
                .body("lineItems[0].prescriptionRecord.pharmacyOrderId", matchesPattern(ORDER_ID));
        assertEquals("sent_to_pharmacy partner:" + pending.partner(), history(pending).get(2));
        send(pending).then().statusCode(400).body("error", equalTo("This item has already been sent to pharmacy"));
    }

    @Test
    void fulfilmentSettingsDefaultToAutomaticAndRefuseOtherModes() {
        given().get("/ops/v1/partners/" + pending.partner() + "/fulfilment").then().statusCode(200).body("mode", equalTo("automatic"));
        mode(pending.partner(), "scheduled").then().statusCode(400)
                .body("error[0].code", equalTo("invalid_enum_value"))
                .body("error[0].path", equalTo(List.of("mode")))
                .body("error[0].message", equalTo("Invalid enum value. Expected 'automatic' | 'deferred', received 'scheduled'"));
        given().contentType("application/json").body("{}").put("/ops/v1/partners/" + pending.partner() + "/fulfilment")
                .then().statusCode(400).body("error[0].path", equalTo(List.of("mode"))).body("error[0].message", equalTo("Required"));
        given().contentType("application/json").put("/ops/v1/partners/" + pending.partner() + "/fulfilment")
                .then().statusCode(400).body("error[0].path", equalTo(List.of("mode"))).body("error[0].message", equalTo("Required"));
        mode(pending.partner(), "deferred").then().statusCode(200).body("mode", equalTo("deferred"));
        mode(pending.partner(), "automatic").then().statusCode(200).body("mode", equalTo("automatic"));
        given().get("/ops/v1/partners/" + pending.partner() + "/fulfilment").then().statusCode(200).body("mode", equalTo("automatic"));
    }

    @Test
    void twoFirstSettingsOfOnePartnerAtOnceBothSucceed() {
        String partner = RequestFixtures.newPartner();
        List<CompletableFuture<Integer>> puts = List.of("deferred", "automatic", "deferred", "automatic").stream()
                .map(mode -> CompletableFuture.supplyAsync(() -> mode(partner, mode).statusCode())).toList();
        assertEquals(List.of(200, 200, 200, 200), puts.stream().map(CompletableFuture::join).toList());
        given().get("/ops/v1/partners/" + partner + "/fulfilment").then().statusCode(200)
                .body("mode", org.hamcrest.Matchers.oneOf("automatic", "deferred"));
    }

    @Test
    void onlyApprovedUntransmittedItemsOfThePartnersOwnRequestsAreSent() {
        send(pending).then().statusCode(400)
                .body("error", equalTo("Cannot send to pharmacy: item status is 'pending', expected 'approved'"));
        send("partner-" + UUID.randomUUID(), pending.requestId(), pending.itemId()).then().statusCode(404)
                .body("error", equalTo("Request not found"));
        send(pending.partner(), UUID.randomUUID().toString(), pending.itemId()).then().statusCode(404)
                .body("error", equalTo("Request not found"));
        send(pending.partner(), "not-a-uuid", pending.itemId()).then().statusCode(404).body("error", equalTo("Request not found"));
        send(pending.partner(), pending.requestId(), UUID.randomUUID().toString()).then().statusCode(404)
                .body("error", equalTo("Line item not found"));
        given().header("X-Partner-Id", pending.partner()).contentType("application/json").body("{}")
                .post("/v1/requests/" + pending.requestId() + "/cancel").then().statusCode(200);
        send(pending).then().statusCode(400)
                .body("error", equalTo("Cannot send to pharmacy: item status is 'cancelled', expected 'approved'"));
    }

    @Test
    void aLegacySingleDrugRequestIsTheItemWhateverItemIdIsSent() {
        mode(pending.partner(), "deferred").then().statusCode(200);
        Map<String, Object> legacy = new LinkedHashMap<>();
        legacy.put("memberId", pending.memberId());
        legacy.put("drugId", pending.drugId());
        legacy.put("caseNotes", "Legacy body");
        String requestId = RequestFixtures.created(pending.partner(), legacy);
        String itemId = RequestFixtures.get(pending.partner(), requestId).then().extract().path("lineItems[0].itemId");
        PendingRequest legacyRequest = new PendingRequest(pending.partner(), pending.drugId(), pending.memberId(),
                pending.prescriberId(), requestId, itemId);
        approve(legacyRequest).then().statusCode(200);
        assertAnswer(send(pending.partner(), requestId, "legacy"), answer(true, "email", List.of(SANDBOX_NOTE), null));
        assertTrue(sent(legacyRequest));
    }

    @Test
    void pausedOrCancelledMembersHoldTheItemAndNothingIsMarkedSent() {
        deferredAndApproved();
        neighbours.memberStatus(pending.memberId(), "paused");
        assertHeld(send(pending), "email", held("member_paused", "member is paused"));
        neighbours.memberStatus(pending.memberId(), "cancelled");
        assertHeld(send(pending), "email", held("member_cancelled", "member is cancelled"));
        assertFalse(sent(pending));
        assertEquals("issued", recordStatus(pending));
        Map<String, Object> stored = stored(pending);
        assertNull(stored.get("transmission_claim"));
        assertEquals(held("member_cancelled", "member is cancelled"), stored.get("transmission_error"));
        neighbours.memberStatus(pending.memberId(), "active");
        assertAnswer(send(pending), answer(true, "email", List.of(SANDBOX_NOTE), null));
    }

    @Test
    void anUnreadPatientMessageHoldsTheItemUntilAPrescriberReadsIt() {
        deferredAndApproved();
        neighbours.unreadFromPatient(pending.memberId(), true);
        assertHeld(send(pending), "email",
                held("unread_patient_message", "the patient sent a message since approval that no prescriber has read"));
        FakeNeighbour.Call asked = neighbours.calls().stream().filter(FakeNeighbours::toMessaging).findFirst().orElseThrow();
        assertEquals(pending.partner(), asked.query().get("partnerId"));
        assertEquals(pending.memberId(), asked.query().get("memberId"));
        String issuedAt = read(pending).then().extract().path("lineItems[0].prescriptionRecord.issuedAt");
        assertEquals(OffsetDateTime.parse(issuedAt).toInstant(), Instant.parse(asked.query().get("since")));
        neighbours.unreadFromPatient(pending.memberId(), false);
        assertAnswer(send(pending), answer(true, "email", List.of(SANDBOX_NOTE), null));
    }

    @Test
    void aNeighbourThatCannotAnswerHoldsTheItem() {
        deferredAndApproved();
        neighbours.failMessaging(FakeNeighbour.Failure.UNAVAILABLE_503);
        assertHeld(send(pending), "email", held("hold_check_unavailable", "messaging-service did not answer"));
        neighbours.failMessaging(null);
        neighbours.failMembers(FakeNeighbour.Failure.ERROR_500);
        assertHeld(send(pending), "email", held("hold_check_unavailable", "members-service did not answer"));
        neighbours.failMembers(null);
        assertFalse(sent(pending));
    }

    @Test
    void aDrugWithoutAPharmacyIsNeverTransmitted() {
        // The catalogue answers the method when a request is created: a fresh request of the drug, now "none".
        neighbours.pharmacyMethod(pending.drugId(), "none");
        mode(pending.partner(), "deferred").then().statusCode(200);
        PendingRequest none = newRequest(RequestFixtures.prescription(pending.memberId(), pending.drugId()));
        approve(none).then().statusCode(200);
        assertHeld(send(none), "none", held("no_pharmacy", "drug " + none.drugId() + " has no pharmacy"));
        assertEquals(List.of("created api", "approved " + none.prescriberId(),
                "transmission_failed partner:" + none.partner()), history(none));
        assertFalse(sent(none));
    }

    @Test
    void aRecordChangedAfterSigningIsNeverTransmitted() throws Exception {
        deferredAndApproved();
        UUID recordId = UUID.fromString(read(pending).then().extract().path("lineItems[0].prescriptionRecord.id"));
        // Straight SQL cannot change the signed dose: the database refuses it.
        IllegalStateException refused = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                () -> ServiceDatabase.update(
                        "UPDATE prescription_records SET clinical = jsonb_set(clinical, '{clinicalDose,value}', '5') WHERE id = ?",
                        recordId));
        assertEquals("prescription record " + recordId + " is signed: clinical cannot change",
                ((PSQLException) refused.getCause()).getServerErrorMessage().getMessage());
        assertAnswer(send(pending), answer(true, "email", List.of(SANDBOX_NOTE), null));

        PendingRequest tampered = newRequest(RequestFixtures.prescription(pending.memberId(), pending.drugId()));
        approve(tampered).then().statusCode(200);
        UUID tamperedRecord = UUID.fromString(read(tampered).then().extract().path("lineItems[0].prescriptionRecord.id"));
        // Behind the trigger's back, the digest taken at signing no longer matches.
        Tampering.changeSignedDose(tamperedRecord, "5");
        String error = held("record_digest_mismatch", "the prescription record no longer matches its signed digest");
        assertHeld(send(tampered), "email", error);
        assertFalse(sent(tampered));
        assertEquals("issued", recordStatus(tampered));
        assertEquals("transmission_failed partner:" + tampered.partner(), history(tampered).get(2));
    }

    @Test
    void aHeldAutomaticItemIsSentByTheDispatcherOnceTheHoldClears() {
        neighbours.memberStatus(pending.memberId(), "paused");
        approve(pending).then().statusCode(200);
        await().atMost(DISPATCH).until(() -> held("member_paused", "member is paused").equals(stored(pending).get("transmission_error")));
        assertFalse(sent(pending));
        assertTrue(stored(pending).get("transmit_due_at") != null, "a held automatic item stays due");
        neighbours.memberStatus(pending.memberId(), "active");
        await().atMost(DISPATCH).until(() -> sent(pending));
        assertEquals(List.of("created api", "approved " + pending.prescriberId(), "sent_to_pharmacy service"), history(pending));
        assertNull(stored(pending).get("transmission_error"));
    }

    @Test
    void aScheduledItemWaitsForItsTimeAndAManualSendGoesFirst() {
        Instant sendAt = Instant.now().plusSeconds(4).truncatedTo(ChronoUnit.MILLIS);
        PendingRequest scheduled = scheduledRequest(sendAt);
        approve(scheduled).then().statusCode(200);
        assertEquals(sendAt, ((Timestamp) stored(scheduled).get("transmit_due_at")).toInstant());
        assertFalse(sent(scheduled));
        await().atMost(DISPATCH).until(() -> sent(scheduled));
        Instant sentAt = Instant.parse(read(scheduled).then().extract().<String>path("lineItems[0].pharmacySentAt"));
        assertFalse(sentAt.isBefore(sendAt), sentAt + " before " + sendAt);

        PendingRequest early = scheduledRequest(Instant.now().plusSeconds(3));
        approve(early).then().statusCode(200);
        assertAnswer(send(early), answer(true, "email", List.of(SANDBOX_NOTE), null));
        assertNull(stored(early).get("transmit_due_at"), "the scheduler skips an item already sent by hand");
        await().pollDelay(Duration.ofSeconds(4)).atMost(DISPATCH)
                .until(() -> history(early).stream().filter(entry -> entry.startsWith("sent_to_pharmacy")).count() == 1);
    }

    @Test
    void aDeferredAccountIgnoresPharmacySendAt() {
        mode(pending.partner(), "deferred").then().statusCode(200);
        PendingRequest scheduled = scheduledRequest(Instant.now().plusSeconds(2));
        approve(scheduled).then().statusCode(200);
        assertNull(stored(scheduled).get("transmit_due_at"));
    }

    @Test
    void aSendInFlightHoldsEveryOtherSenderAndTheCancel() {
        deferredAndApproved();
        neighbours.hold(FakeNeighbours::toMessaging);
        CompletableFuture<Response> first = CompletableFuture.supplyAsync(() -> send(pending));
        await().atMost(DISPATCH).until(() -> !neighbours.held().isEmpty());
        assertHeld(send(pending), "email",
                held("transmission_in_progress", "another transmission of this item is in progress"));
        given().header("X-Partner-Id", pending.partner()).contentType("application/json").body("{}")
                .post("/v1/requests/" + pending.requestId() + "/cancel")
                .then().statusCode(200)
                .body("cancelled", equalTo(List.of()))
                .body("skipped[0].reason", equalTo("already transmitted to the pharmacy (order pending)"));
        neighbours.release();
        assertAnswer(first.join(), answer(true, "email", List.of(SANDBOX_NOTE), null));
        assertEquals(1, history(pending).stream().filter(entry -> entry.startsWith("sent_to_pharmacy")).count());
        read(pending).then().body("lineItems[0].status", equalTo("approved"))
                .body("lineItems[0].trackingNumber", nullValue());
    }

    @Test
    void anOperatorResendsAFailedItem() {
        deferredAndApproved();
        given().post("/ops/v1/requests/" + pending.requestId() + "/items/" + pending.itemId() + "/send-to-pharmacy")
                .then().statusCode(200).body("success", equalTo(true)).body("method", equalTo("email"));
        assertEquals("sent_to_pharmacy service", history(pending).get(2));
        given().post("/ops/v1/requests/" + UUID.randomUUID() + "/items/" + pending.itemId() + "/send-to-pharmacy")
                .then().statusCode(404).body("error", equalTo("Request not found"));
    }

    /** A new pending request of the partner's member with {@code pharmacySendAt}. */
    private PendingRequest scheduledRequest(Instant sendAt) {
        Map<String, Object> body = RequestFixtures.prescription(pending.memberId(), pending.drugId());
        body.put("pharmacySendAt", sendAt.toString());
        return newRequest(body);
    }

    private PendingRequest newRequest(Map<String, Object> body) {
        String requestId = RequestFixtures.created(pending.partner(), body);
        String itemId = RequestFixtures.get(pending.partner(), requestId).then().extract().path("lineItems[0].itemId");
        return new PendingRequest(pending.partner(), pending.drugId(), pending.memberId(), pending.prescriberId(), requestId, itemId);
    }
}
