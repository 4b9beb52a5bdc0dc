package com.telemed.requests.fulfilment;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
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
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import com.telemed.requests.FakeNeighbours;
import com.telemed.requests.FakeNeighboursResource;
import com.telemed.requests.request.PendingRequest;
import com.telemed.testkit.quarkus.InfrastructureResource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Inject;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The HTTP pharmacy adapter in a production deployment, against a real HTTP server the test
 * starts ({@link PharmacyServerResource}): the order it receives and its signature, and its
 * accepted, rejected, slow, oversized and failing answers; a method without an endpoint; an
 * automatic transmission that fails and an operator's resend.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(FakeNeighboursResource.class)
@WithTestResource(PharmacyServerResource.class)
class HttpPharmacyTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    FakeNeighbours neighbours;

    WireMockServer pharmacy;
    PendingRequest pending;

    @BeforeEach
    void setUp() {
        pharmacy = PharmacyServerResource.server();
        pharmacy.resetAll();
        neighbours.reset();
        neighbours.defaultPharmacyMethod("integration_a");
        pending = PendingRequest.create(neighbours, "Grace", "Hopper");
    }

    @AfterEach
    void heal() {
        neighbours.reset();
        pharmacy.resetAll();
    }

    private void pharmacyAnswers(int status, String body) {
        pharmacy.stubFor(post(urlEqualTo(PharmacyServerResource.ORDERS))
                .willReturn(aResponse().withStatus(status).withHeader("Content-Type", "application/json").withBody(body)));
    }

    private List<LoggedRequest> orders() {
        return pharmacy.findAll(postRequestedFor(urlEqualTo(PharmacyServerResource.ORDERS)));
    }

    private void deferredAndApproved() {
        mode(pending.partner(), "deferred").then().statusCode(200);
        approve(pending).then().statusCode(200);
    }

    private static void assertAnswer(Response response, boolean success, String method, String error) {
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("success", success);
        expected.put("method", method);
        expected.put("warnings", error == null ? List.of() : List.of(error));
        if (error != null) {
            expected.put("error", error);
        }
        response.then().statusCode(200);
        assertEquals(expected, response.jsonPath().getMap(""));
    }

    @Test
    void anAcceptedOrderCarriesTheSignedRecordAndShipsToTheShippingAddress() throws Exception {
        JsonObject shipping = new JsonObject().put("street1", "9 Dock Rd").put("street2", null).put("city", "Oakland")
                .put("state", "CA").put("zipCode", "94607");
        neighbours.member(pending.memberId()).put("shippingAddress", shipping);
        pharmacyAnswers(201, "{\"orderId\": \"PH-1001\"}");
        deferredAndApproved();

        assertAnswer(send(pending), true, "integration_a", null);
        read(pending).then().statusCode(200)
                .body("lineItems[0].pharmacySent", equalTo(true))
                .body("lineItems[0].prescriptionRecord.pharmacyOrderId", equalTo("PH-1001"))
                .body("lineItems[0].prescriptionRecord.status", equalTo("sent_to_pharmacy"));

        List<LoggedRequest> orders = orders();
        assertEquals(1, orders.size());
        assertEquals(pending.itemId(), orders.get(0).getHeader("Idempotency-Key"));
        JsonNode order = JSON.readTree(orders.get(0).getBodyAsString());
        JsonNode record = JSON.readTree(read(pending).then().extract().body().asString()).path("lineItems").get(0)
                .path("prescriptionRecord");
        assertEquals(pending.itemId(), order.path("orderReference").asText());
        assertEquals(pending.requestId(), order.path("requestId").asText());
        assertEquals("integration_a", order.path("method").asText());
        assertEquals("pharmacy-" + pending.drugId(), order.path("pharmacyId").asText());
        JsonNode prescription = order.path("prescription");
        assertEquals(record.path("id").asText(), prescription.path("recordId").asText());
        assertTrue(prescription.path("digest").asText().matches("^[0-9a-f]{64}$"), prescription.toString());
        assertEquals(pending.drugId(), prescription.path("drugId").asText());
        assertEquals(pending.prescriberId(), prescription.path("prescriberId").asText());
        assertEquals(record.path("issuedAt").asText(), prescription.path("issuedAt").asText());
        assertEquals(record.path("expirationDate").asText(), prescription.path("expirationDate").asText());
        JsonNode clinical = prescription.path("clinical");
        assertEquals("Semaglutide", clinical.path("drugName").asText());
        assertEquals("0.25mg", clinical.path("selectedSku").asText());
        assertEquals(30, clinical.path("daysSupply").asInt());
        assertEquals("Inject weekly", clinical.path("sigText").asText());
        assertEquals(2, clinical.path("refills").asInt());
        assertEquals(4, clinical.path("quantity").asInt());
        assertEquals(JSON.readTree("{\"memberId\": \"" + pending.memberId() + "\", \"firstName\": \"Grace\", \"lastName\": \"Hopper\","
                        + " \"dateOfBirth\": \"1990-04-12\", \"gender\": null, \"email\": \""
                        + neighbours.member(pending.memberId()).getString("email") + "\", \"phone\": null}"),
                order.path("patient"));
        assertEquals(JSON.readTree(shipping.encode()), order.path("shipTo"));
    }

    /**
     * Issue #38: the pharmacy can tell the order came from this platform. The test recomputes the
     * HMAC-SHA256 of {@code "<X-Order-Timestamp>.<raw body>"} with the pharmacy's secret.
     */
    @Test
    void eachOrderIsSignedWithThePharmacysOwnSecret() throws Exception {
        pharmacyAnswers(201, "{\"orderId\": \"PH-1003\"}");
        deferredAndApproved();
        long before = Instant.now().getEpochSecond();
        assertAnswer(send(pending), true, "integration_a", null);
        long after = Instant.now().getEpochSecond();

        LoggedRequest order = orders().get(0);
        String timestamp = order.getHeader("X-Order-Timestamp");
        assertTrue(timestamp.matches("^[0-9]+$"), timestamp);
        assertTrue(Long.parseLong(timestamp) >= before && Long.parseLong(timestamp) <= after, timestamp);
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(PharmacyServerResource.SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        mac.update((timestamp + ".").getBytes(StandardCharsets.UTF_8));
        assertEquals("sha256=" + HexFormat.of().formatHex(mac.doFinal(order.getBody())), order.getHeader("X-Order-Signature"));
        assertEquals(pending.itemId(), JSON.readTree(order.getBody()).path("orderReference").asText());
    }

    /**
     * Issue #38: a pharmacy's answer is read to at most 64 KiB (PHARMACY_MAX_ANSWER_BYTES); a 10 MB one,
     * even a well-formed acceptance, is a failed transmission and nothing is marked sent.
     */
    @Test
    void aTenMegabyteAnswerIsAFailedTransmission() {
        pharmacy.stubFor(post(urlEqualTo(PharmacyServerResource.ORDERS)).willReturn(aResponse().withStatus(201)
                .withHeader("Content-Type", "application/json").withBody("{\"orderId\": \"PH-huge\", \"note\": \"\"}")
                .withTransformers(PharmacyServerResource.PaddedAnswer.NAME).withTransformerParameter("padding", 10 * 1024 * 1024)));
        deferredAndApproved();
        String error = held("pharmacy_unavailable", "answer larger than 65536 bytes");
        assertAnswer(send(pending), false, "integration_a", error);
        assertFalse(sent(pending));
        Map<String, Object> stored = stored(pending);
        assertEquals(error, stored.get("transmission_error"));
        assertNull(stored.get("pharmacy_order_id"));
        assertNull(stored.get("transmission_claim"));
        assertEquals("transmission_failed partner:" + pending.partner(), history(pending).get(2));
        // The pharmacy has the one order (and the next test's reset comes after it).
        await().atMost(Duration.ofSeconds(10)).until(() -> orders().size() == 1);
    }

    @Test
    void withoutAShippingAddressTheOrderShipsHome() throws Exception {
        pharmacyAnswers(200, "{\"orderId\": \"PH-1002\"}");
        deferredAndApproved();
        assertAnswer(send(pending), true, "integration_a", null);
        JsonNode order = JSON.readTree(orders().get(0).getBodyAsString());
        assertEquals(JSON.readTree(neighbours.member(pending.memberId()).getJsonObject("address").encode()), order.path("shipTo"));
    }

    @Test
    void aRejectionIsAFailureWithThePharmacysReasonAndNothingIsMarkedSent() {
        pharmacyAnswers(422, "{\"reason\": \"Out of stock\"}");
        deferredAndApproved();
        String error = held("pharmacy_rejected", "Out of stock");
        assertAnswer(send(pending), false, "integration_a", error);
        assertFalse(sent(pending));
        assertEquals("issued", recordStatus(pending));
        assertEquals(error, stored(pending).get("transmission_error"));
        assertEquals("transmission_failed partner:" + pending.partner(), history(pending).get(2));
        pharmacyAnswers(400, "");
        assertAnswer(send(pending), false, "integration_a", held("pharmacy_rejected", "HTTP 400"));
    }

    @Test
    void aFailedEarlySendOfAScheduledItemLeavesNothingDue() {
        pharmacyAnswers(422, "{\"reason\": \"Prescriber licence not on file\"}");
        Map<String, Object> body = com.telemed.requests.request.RequestFixtures.prescription(pending.memberId(), pending.drugId());
        body.put("pharmacySendAt", java.time.Instant.now().plusSeconds(3600).toString());
        String requestId = com.telemed.requests.request.RequestFixtures.created(pending.partner(), body);
        String itemId = com.telemed.requests.request.RequestFixtures.get(pending.partner(), requestId).then()
                .extract().path("lineItems[0].itemId");
        PendingRequest scheduled = new PendingRequest(pending.partner(), pending.drugId(), pending.memberId(),
                pending.prescriberId(), requestId, itemId);
        approve(scheduled).then().statusCode(200);
        assertTrue(stored(scheduled).get("transmit_due_at") != null, "scheduled an hour ahead");
        assertAnswer(send(scheduled), false, "integration_a", held("pharmacy_rejected", "Prescriber licence not on file"));
        assertNull(stored(scheduled).get("transmit_due_at"), "a failure waits for an operator, even one met ahead of time");
    }

    @Test
    void aFailingOrSlowPharmacyLeavesTheOrderUnsent() {
        deferredAndApproved();
        pharmacyAnswers(503, "{\"reason\": \"maintenance\"}");
        assertAnswer(send(pending), false, "integration_a", held("pharmacy_unavailable", "HTTP 503"));
        pharmacyAnswers(200, "{}");
        assertAnswer(send(pending), false, "integration_a", held("pharmacy_unavailable", "HTTP 200 without an orderId"));
        pharmacy.stubFor(post(urlEqualTo(PharmacyServerResource.ORDERS)).willReturn(aResponse().withStatus(201)
                .withHeader("Content-Type", "application/json").withBody("{\"orderId\": \"PH-late\"}")
                .withFixedDelay((int) PharmacyServerResource.TIMEOUT_MS * 3)));
        assertAnswer(send(pending), false, "integration_a",
                held("pharmacy_unavailable", "no answer within " + PharmacyServerResource.TIMEOUT_MS + " ms"));
        assertFalse(sent(pending));
        assertNull(stored(pending).get("transmission_claim"));
    }

    @Test
    void aMethodWithoutAnEndpointIsHeld() {
        neighbours.defaultPharmacyMethod("integration_b");
        PendingRequest other = PendingRequest.create(neighbours, "Alan", "Turing");
        mode(other.partner(), "deferred").then().statusCode(200);
        approve(other).then().statusCode(200);
        assertAnswer(send(other), false, "integration_b",
                held("pharmacy_not_configured", "no pharmacy integration is configured for integration_b"));
        assertEquals(0, orders().size());
    }

    @Test
    void aFailedAutomaticTransmissionStaysApprovedUntilAnOperatorResendsIt() {
        pharmacyAnswers(500, "");
        approve(pending).then().statusCode(200);
        await().atMost(Duration.ofSeconds(15)).until(() -> stored(pending).get("transmission_failed_at") != null);
        Map<String, Object> stored = stored(pending);
        assertEquals("approved", stored.get("status"));
        assertEquals(false, stored.get("pharmacy_sent"));
        assertNull(stored.get("transmit_due_at"), "a failure waits for an operator, not for the dispatcher");
        assertEquals(held("pharmacy_unavailable", "HTTP 500"), stored.get("transmission_error"));
        assertEquals("transmission_failed service", history(pending).get(2));
        assertEquals(1, orders().size());
        List<Map<String, Object>> failed = given().get("/ops/v1/pharmacy/failed-transmissions?limit=100").then().statusCode(200)
                .extract().jsonPath().getList("items");
        Map<String, Object> listed = failed.stream().filter(item -> pending.itemId().equals(item.get("itemId"))).findFirst().orElseThrow();
        assertEquals(List.of("requestId", "itemId", "partnerId", "error", "failedAt"), List.copyOf(listed.keySet()));
        assertEquals(pending.requestId(), listed.get("requestId"));
        assertEquals(pending.partner(), listed.get("partnerId"));
        assertEquals(held("pharmacy_unavailable", "HTTP 500"), listed.get("error"));

        pharmacyAnswers(201, "{\"orderId\": \"PH-2001\"}");
        given().post("/ops/v1/requests/" + pending.requestId() + "/items/" + pending.itemId() + "/send-to-pharmacy")
                .then().statusCode(200).body("success", equalTo(true)).body("method", equalTo("integration_a"))
                .body("warnings", equalTo(List.of()));
        assertTrue(sent(pending));
        assertEquals("sent_to_pharmacy service", history(pending).get(3));
        assertNull(stored(pending).get("transmission_error"));
        assertFalse(given().get("/ops/v1/pharmacy/failed-transmissions?limit=100").then().statusCode(200)
                .extract().jsonPath().<String>getList("items.itemId").contains(pending.itemId()));
        given().get("/ops/v1/pharmacy/failed-transmissions?limit=0").then().statusCode(400)
                .body("error[0].code", equalTo("invalid_string"))
                .body("error[0].path", equalTo(List.of("limit")))
                .body("error[0].message", equalTo("limit must be an integer from 1 to 100"));
    }
}
