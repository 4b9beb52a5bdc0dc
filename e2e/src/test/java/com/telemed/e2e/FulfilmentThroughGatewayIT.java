package com.telemed.e2e;

import static com.telemed.e2e.WebhookPayloads.assertPayload;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.e2e.WebhookReceiver.Received;
import com.telemed.testkit.e2e.RunningPlatform;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Pharmacy fulfilment (requests-service README, "Fulfilment") as partners and operators drive it
 * through the gateway, against every real service of the shared sandbox platform: the automatic
 * transmission after an approval and the pharmacy's shipping updates reaching the partner's
 * webhook; the deferred account's send-to-pharmacy held by the real members-service (a paused
 * member) and the real messaging-service (an unread patient message) until the hold clears; and
 * the contract's refusals. In a sandbox deployment every order goes to the sandbox pharmacy
 * ({@code ord_} + 24 hex), whatever the drug's {@code pharmacy.method}.
 */
@ExtendWith(RunningPlatform.class)
class FulfilmentThroughGatewayIT {

    private static final String TIMESTAMP = "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z";
    private static final String ORDER_ID = "^ord_[0-9a-f]{24}$";
    private static final Map<String, Object> PRESCRIPTION = Map.of("quantity", 30, "quantityUnits", "tablets",
            "daysSupply", 30, "directions", "One tablet daily", "refills", 1, "dispenseAsWritten", false);
    private static final String SANDBOX_SENT =
            "{\"success\":true,\"method\":\"integration_a\",\"warnings\":[\"Sandbox deployment: the order went to the sandbox pharmacy\"]}";
    private static final String TRACKING = "1Z999AA10123456784";

    private RunningPlatform.Handle platform;

    /** A partner of the test's own: its id and API key. */
    private record Partner(String id, String apiKey) {
    }

    /** An approved (or pending) item of a request. */
    private record Item(String requestId, String itemId, String memberId) {
    }

    private RequestSpecification ops() {
        return given().baseUri(platform.gateway().toString()).header("x-ops-key", platform.opsKey()).contentType(ContentType.JSON);
    }

    private RequestSpecification as(Partner partner) {
        return given().baseUri(platform.gateway().toString()).header("x-api-key", partner.apiKey());
    }

    private Partner partner() {
        JsonPath created = ops().body(Map.of("name", "Fulfilment E2E " + UUID.randomUUID()))
                .post("/ops/v1/partners").then().statusCode(201).extract().jsonPath();
        return new Partner(created.getString("partner.id"), created.getString("apiKey"));
    }

    private void deferred(Partner partner) {
        ops().body(Map.of("mode", "deferred")).put("/ops/v1/partners/" + partner.id() + "/fulfilment")
                .then().statusCode(200).body(equalTo("{\"mode\":\"deferred\"}"));
        ops().get("/ops/v1/partners/" + partner.id() + "/fulfilment").then().statusCode(200).body(equalTo("{\"mode\":\"deferred\"}"));
    }

    /** A drug filled by an API-integrated pharmacy; returns its id. */
    private String drug() {
        String drugId = "ful-e2e-" + UUID.randomUUID().toString().substring(0, 8);
        ops().body("""
                        {"name": "Tadalafil E2E", "classification": "non-controlled",
                         "skus": [{"label": "5 mg", "active": true}], "pharmacy": {"id": "pharm-e2e-a", "method": "integration_a"}}""")
                .put("/ops/v1/drugs/" + drugId).then().statusCode(200).body("drug.pharmacy.method", equalTo("integration_a"));
        return drugId;
    }

    private String prescriber() {
        return ops().body(Map.of("name", "Dr Apothecary", "email", "apothecary." + UUID.randomUUID() + "@clinic.example"))
                .post("/ops/v1/prescribers").then().statusCode(201).extract().path("prescriber.id");
    }

    private String member(Partner partner) {
        return as(partner).contentType(ContentType.JSON).body("""
                        {"firstName": "Dorothy", "lastName": "Vaughan", "email": "dorothy.%s@example.com",
                         "dateOfBirth": "1910-09-20", "state": "VA", "phone": "555-0142",
                         "address": {"street1": "1 Langley Rd", "city": "Hampton", "state": "VA", "zipCode": "23665"}}"""
                        .formatted(UUID.randomUUID()))
                .post("/v1/members").then().statusCode(201).extract().path("member.id");
    }

    /** A pending item: a request with an {@code items} body for the member. */
    private Item pending(Partner partner, String memberId, String drugId) {
        String requestId = as(partner).contentType(ContentType.JSON)
                .body(Map.of("memberId", memberId, "caseNotes", "e2e fulfilment", "items", List.of(Map.of("drugId", drugId, "dosage", "5 mg"))))
                .post("/v1/requests").then().statusCode(201).extract().path("requestId");
        String itemId = as(partner).get("/v1/requests/" + requestId).then().statusCode(200).extract().path("lineItems[0].itemId");
        return new Item(requestId, itemId, memberId);
    }

    private Item approved(Partner partner, String memberId, String drugId, String prescriberId) {
        Item item = pending(partner, memberId, drugId);
        ops().body(Map.of("prescriberId", prescriberId, "prescription", PRESCRIPTION))
                .post("/ops/v1/requests/" + item.requestId() + "/items/" + item.itemId() + "/approve")
                .then().statusCode(200).body("prescriptionRecord.status", equalTo("issued"));
        return item;
    }

    private Response send(Partner partner, Item item) {
        return as(partner).post("/v1/requests/" + item.requestId() + "/items/" + item.itemId() + "/send-to-pharmacy");
    }

    private JsonPath read(Partner partner, Item item) {
        return as(partner).get("/v1/requests/" + item.requestId()).then().statusCode(200).extract().jsonPath();
    }

    private Response update(Map<String, Object> body) {
        return ops().body(body).post("/ops/v1/pharmacy/updates");
    }

    /** The shipping update's answer, exactly: {@code {success, requestId, itemId, event}}. */
    private static void assertApplied(Response answer, Item item, String event) {
        assertEquals(200, answer.statusCode(), answer.asString());
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("success", true);
        expected.put("requestId", item.requestId());
        expected.put("itemId", item.itemId());
        expected.put("event", event);
        Map<String, Object> actual = answer.jsonPath().getMap("$");
        assertEquals(List.copyOf(expected.keySet()), List.copyOf(actual.keySet()));
        assertEquals(expected, actual);
    }

    /** The item is sent, as the partner reads it: the item, its record and one {@code sent_to_pharmacy} in its history. */
    private static String assertSent(JsonPath detail, String by) {
        assertEquals(true, detail.getBoolean("lineItems[0].pharmacySent"));
        String sentAt = detail.getString("lineItems[0].pharmacySentAt");
        assertTrue(sentAt.matches(TIMESTAMP), sentAt);
        assertEquals("approved", detail.getString("lineItems[0].status"));
        assertEquals("sent_to_pharmacy", detail.getString("lineItems[0].prescriptionRecord.status"));
        String orderId = detail.getString("lineItems[0].prescriptionRecord.pharmacyOrderId");
        assertTrue(orderId.matches(ORDER_ID), orderId);
        assertEquals(sentAt, detail.getString("lineItems[0].prescriptionRecord.sentToPharmacyAt"));
        assertEquals(List.of("created", "approved", "sent_to_pharmacy"), detail.getList("lineItems[0].history.action"));
        assertEquals(by, detail.getList("lineItems[0].history.by").get(2));
        assertEquals(sentAt, detail.getList("lineItems[0].history.timestamp").get(2));
        return orderId;
    }

    /**
     * An automatic account: the approval alone sends the item to the (sandbox) pharmacy, read back
     * as sent with an {@code ord_} order and its history; the pharmacy's first shipped update sends
     * the partner {@code item.shipped} with exactly the contract's fields, signed; the pharmacy
     * repeating it changes nothing ({@code event: null}, no webhook, no history); a later status
     * sends {@code delivery.update} keeping the known tracking number and carrier.
     */
    @Test
    void anAutomaticApprovalReachesThePharmacyAndItsShippingReachesThePartner(RunningPlatform.Handle platform) throws Exception {
        this.platform = platform;
        try (WebhookReceiver receiver = new WebhookReceiver((post, attempt) -> 204)) {
            Partner partner = partner();
            String secret = ops().body(Map.of("url", receiver.url())).put("/ops/v1/partners/" + partner.id() + "/webhook")
                    .then().statusCode(200).extract().path("secret");
            String drugId = drug();
            ops().body(Map.of("drugIds", List.of(drugId))).put("/ops/v1/partners/" + partner.id() + "/drug-access")
                    .then().statusCode(200);
            String prescriberId = prescriber();
            Item item = approved(partner, member(partner), drugId, prescriberId);

            JsonPath detail = await("the automatic transmission").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                    .until(() -> read(partner, item), read -> read.getBoolean("lineItems[0].pharmacySent"));
            String orderId = assertSent(detail, "service");
            assertEquals(List.of("api", prescriberId, "service"), detail.getList("lineItems[0].history.by"));
            assertNull(detail.get("lineItems[0].deliveryStatus"));

            // The pharmacy ships it.
            Map<String, Object> shipped = Map.of("pharmacyOrderId", orderId, "status", "Shipped", "trackingNumber", TRACKING,
                    "shipCarrier", "UPS", "shipped", true);
            assertApplied(update(shipped), item, "item.shipped");
            Received shippedEvent = receiver.await("item.shipped", 1, Duration.ofSeconds(30)).get(0);
            WebhookReceiver.assertSigned(shippedEvent, secret);
            assertPayload(shippedEvent.json(), "event", "item.shipped", "requestId", item.requestId(), "memberId", item.memberId(),
                    "itemId", item.itemId(), "status", "Shipped", "trackingNumber", TRACKING, "shipCarrier", "UPS", "daysSupply", 30);

            // The same update again: nothing changes, nothing is sent.
            assertApplied(update(shipped), item, null);

            // Delivered: a delivery.update with the tracking number and carrier already known.
            assertApplied(update(Map.of("pharmacyOrderId", orderId, "status", "Delivered")), item, "delivery.update");
            Received delivered = receiver.await("delivery.update", 1, Duration.ofSeconds(30)).get(0);
            WebhookReceiver.assertSigned(delivered, secret);
            assertPayload(delivered.json(), "event", "delivery.update", "requestId", item.requestId(), "memberId", item.memberId(),
                    "itemId", item.itemId(), "status", "Delivered", "trackingNumber", TRACKING, "shipCarrier", "UPS", "daysSupply", 30);

            // Exactly the approval's two events and the two delivery events: the repeat sent nothing.
            await("no further webhook").during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5))
                    .until(() -> receiver.received().size() == 4);
            assertEquals(List.of("delivery.update", "item.approved", "item.shipped", "request.all_approved"),
                    receiver.received().stream().map(Received::event).sorted().toList());

            JsonPath after = read(partner, item);
            assertEquals("Delivered", after.getString("lineItems[0].deliveryStatus"));
            assertEquals(TRACKING, after.getString("lineItems[0].trackingNumber"));
            assertEquals("UPS", after.getString("lineItems[0].shipCarrier"));
            assertEquals("approved", after.getString("lineItems[0].status"));
            assertEquals(List.of("created", "approved", "sent_to_pharmacy", "shipped", "delivery_updated"),
                    after.getList("lineItems[0].history.action"));
            assertEquals(Arrays.asList(null, null, null, "Shipped", "Delivered"), after.getList("lineItems[0].history.reason"));
            assertEquals(List.of("api", prescriberId, "service", "service", "service"), after.getList("lineItems[0].history.by"));
            // The record stays as it was sent.
            assertEquals("sent_to_pharmacy", after.getString("lineItems[0].prescriptionRecord.status"));
            assertEquals(orderId, after.getString("lineItems[0].prescriptionRecord.pharmacyOrderId"));
        }
    }

    /**
     * A deferred account with the real members-service: the approval sends nothing; the partner's
     * send-to-pharmacy is held while the member is paused (nothing marked sent), goes to the
     * sandbox pharmacy once the member is active again (history {@code by partner:<id>}), and a
     * second send is refused as already sent.
     */
    @Test
    void aDeferredSendIsHeldForAPausedMemberAndGoesOnceActive(RunningPlatform.Handle platform) {
        this.platform = platform;
        Partner partner = partner();
        deferred(partner);
        String memberId = member(partner);
        Item item = approved(partner, memberId, drug(), prescriber());

        await("nothing sent on a deferred account").during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(4))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> !read(partner, item).getBoolean("lineItems[0].pharmacySent"));
        JsonPath unsent = read(partner, item);
        assertEquals("issued", unsent.getString("lineItems[0].prescriptionRecord.status"));
        assertNull(unsent.get("lineItems[0].pharmacySentAt"));

        as(partner).contentType(ContentType.JSON).body(Map.of("status", "paused")).put("/v1/members/" + memberId)
                .then().statusCode(200).body("member.status", equalTo("paused"));
        send(partner, item).then().statusCode(200).body(equalTo("{\"success\":false,\"method\":\"integration_a\","
                + "\"warnings\":[\"Fulfillment held: member_paused: member is paused\"],"
                + "\"error\":\"Fulfillment held: member_paused: member is paused\"}"));
        JsonPath held = read(partner, item);
        assertEquals(false, held.getBoolean("lineItems[0].pharmacySent"));
        assertEquals("issued", held.getString("lineItems[0].prescriptionRecord.status"));
        assertEquals(List.of("created", "approved"), held.getList("lineItems[0].history.action"));

        as(partner).contentType(ContentType.JSON).body(Map.of("status", "active")).put("/v1/members/" + memberId)
                .then().statusCode(200).body("member.status", equalTo("active"));
        send(partner, item).then().statusCode(200).body(equalTo(SANDBOX_SENT));
        assertSent(read(partner, item), "partner:" + partner.id());

        send(partner, item).then().statusCode(400).body(equalTo("{\"error\":\"This item has already been sent to pharmacy\"}"));
    }

    /**
     * A deferred account with the real messaging-service: a patient message posted after the
     * approval holds the send ({@code unread_patient_message}) until a prescriber reads the
     * conversation; then the item goes.
     */
    @Test
    void anUnreadPatientMessageHoldsTheSendUntilAPrescriberReadsIt(RunningPlatform.Handle platform) {
        this.platform = platform;
        Partner partner = partner();
        deferred(partner);
        String memberId = member(partner);
        Item item = approved(partner, memberId, drug(), prescriber());

        String conversationId = as(partner).contentType(ContentType.JSON).body(Map.of("memberId", memberId))
                .post("/v1/messages/conversations/for-member").then().statusCode(201).extract().path("conversation.id");
        as(partner).contentType(ContentType.JSON).body(Map.of("text", "Can I take it with grapefruit juice?"))
                .post("/v1/messages/conversations/" + conversationId + "/messages").then().statusCode(201)
                .body("message.senderRole", equalTo("patient"));

        String hold = "Fulfillment held: unread_patient_message: the patient sent a message since approval that no prescriber has read";
        send(partner, item).then().statusCode(200).body(equalTo("{\"success\":false,\"method\":\"integration_a\","
                + "\"warnings\":[\"" + hold + "\"],\"error\":\"" + hold + "\"}"));
        assertEquals(false, read(partner, item).getBoolean("lineItems[0].pharmacySent"));

        ops().post("/ops/v1/conversations/" + conversationId + "/prescriber-read").then().statusCode(200);
        send(partner, item).then().statusCode(200).body(equalTo(SANDBOX_SENT));
        assertSent(read(partner, item), "partner:" + partner.id());
    }

    /**
     * The contract's refusals through the gateway: another partner's request is not found, an
     * unknown item of an {@code items} request is not found, a pending item cannot be sent, and
     * a shipping update for an order nobody knows is not found. None of them sends anything.
     */
    @Test
    void refusals(RunningPlatform.Handle platform) {
        this.platform = platform;
        Partner partner = partner();
        deferred(partner);
        String drugId = drug();
        String memberId = member(partner);
        Item approvedItem = approved(partner, memberId, drugId, prescriber());
        Item pendingItem = pending(partner, memberId, drugId);

        send(partner(), approvedItem).then().statusCode(404).body(equalTo("{\"error\":\"Request not found\"}"));
        send(partner, new Item(approvedItem.requestId(), UUID.randomUUID().toString(), memberId))
                .then().statusCode(404).body(equalTo("{\"error\":\"Line item not found\"}"));
        send(partner, pendingItem).then().statusCode(400)
                .body(equalTo("{\"error\":\"Cannot send to pharmacy: item status is 'pending', expected 'approved'\"}"));
        update(Map.of("pharmacyOrderId", "ord_" + "0".repeat(24), "status", "Shipped", "shipped", true))
                .then().statusCode(404).body(equalTo("{\"error\":\"Order not found\"}"));

        for (Item item : List.of(approvedItem, pendingItem)) {
            JsonPath detail = read(partner, item);
            assertEquals(false, detail.getBoolean("lineItems[0].pharmacySent"));
            assertNotNull(detail.getList("lineItems[0].history.action"));
            assertTrue(!detail.getList("lineItems[0].history.action").contains("sent_to_pharmacy"));
        }
    }
}
