package com.telemed.e2e;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import com.telemed.testkit.concurrent.Parallel;
import com.telemed.testkit.http.JsonCalls;
import com.telemed.testkit.e2e.RunningPlatform;
import com.telemed.testkit.platform.PlatformService;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two requests-service replicas share the due items of a production deployment and send each to
 * the pharmacy exactly once (requests-service README, "Dispatcher": one claim per item, rows
 * claimed with {@code FOR UPDATE SKIP LOCKED} and a lease). The pharmacy is a real HTTP server in
 * this JVM (WireMock, {@code PHARMACY_INTEGRATION_A_URL}) that accepts every order with
 * {@code 201 {"orderId": "PH-<Idempotency-Key>"}} after a short delay; each replica is given its own
 * path to it, so the orders show which replica sent them.
 *
 * <p>200 requests are created through the gateway with one {@code pharmacySendAt} a little ahead
 * and approved before it comes (nothing reaches the pharmacy before), so all 200 come due together
 * and both replicas' dispatchers compete for them. Then: every item reads {@code pharmacySent:
 * true} with the pharmacy's order id; the pharmacy got exactly 200 orders whose
 * {@code Idempotency-Key}s (and {@code orderReference}s) are exactly the 200 item ids; each item's
 * history has exactly one {@code sent_to_pharmacy}; and both replicas sent some.
 *
 * <p>On the platform the test JVM shares: its requests-service is started again as a production
 * deployment ({@code SERVICE_ENVIRONMENT=production}) with the first path, a replica beside it with
 * the second, and when the test ends the replica stops and requests-service runs as before. It is the
 * first Jupiter class ({@code @Order}): only the bad-input property ran before it, and none of its
 * items is due at a pharmacy, so every order the pharmacy gets is one of this test's.
 */
@ExtendWith(RunningPlatform.class)
@Order(1)
class FulfilmentReplicasIT {

    private static final int ITEMS = 200;
    /** Test-side clients creating and approving requests at once. */
    private static final int CLIENTS = 8;
    /** Warm-up requests (on a deferred account: nothing of theirs reaches the pharmacy) that measure the pace. */
    private static final int WARM_UP = 16;
    /** How long the pharmacy takes per order: one replica alone could not send 200 in a poll interval. */
    private static final int PHARMACY_DELAY_MILLIS = 200;
    /** pharmacySendAt is this many times the measured time for the 200 ahead... */
    private static final int SLACK = 2;
    /** ...and at least this far. */
    private static final Duration MIN_AHEAD = Duration.ofSeconds(20);
    private static final String FIRST = "/orders/first";
    private static final String SECOND = "/orders/second";
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final System.Logger LOG = System.getLogger(FulfilmentReplicasIT.class.getName());

    private final JsonCalls calls = new JsonCalls(CALL_TIMEOUT);
    private URI gateway;
    private String opsKey;

    /** A created and approved item. */
    private record Item(String requestId, String itemId) {
    }

    @Test
    void twoReplicasSendEveryDueItemToThePharmacyExactlyOnce(RunningPlatform.Handle platform) throws Exception {
        WireMockServer pharmacy = new WireMockServer(wireMockConfig().bindAddress("127.0.0.1").dynamicPort().containerThreads(64));
        pharmacy.start();
        URI replica = null;
        try {
            pharmacy.stubFor(post(urlPathMatching("/orders/(first|second)")).willReturn(aResponse().withStatus(201)
                    .withHeader("Content-Type", "application/json")
                    .withBody("{\"orderId\": \"PH-{{request.headers.Idempotency-Key}}\"}")
                    .withTransformers("response-template")
                    .withFixedDelay(PHARMACY_DELAY_MILLIS)));
            String pharmacyUrl = "http://127.0.0.1:" + pharmacy.port();
            replica = platform.platform().restartWithReplica(PlatformService.REQUESTS,
                    Map.of("SERVICE_ENVIRONMENT", "production", "PHARMACY_INTEGRATION_A_URL", pharmacyUrl + FIRST),
                    Map.of("SERVICE_ENVIRONMENT", "production", "PHARMACY_INTEGRATION_A_URL", pharmacyUrl + SECOND));
            gateway = platform.gateway();
            opsKey = platform.opsKey();

            String drugId = "rep-e2e-" + UUID.randomUUID().toString().substring(0, 8);
            expect(200, call("PUT", "/ops/v1/drugs/" + drugId, ops(), """
                    {"name": "Metformin Replicas", "classification": "non-controlled",
                     "skus": [{"label": "500 mg", "active": true}], "pharmacy": {"id": "pharm-a", "method": "integration_a"}}"""));
            String prescriberId = expect(201, call("POST", "/ops/v1/prescribers", ops(),
                    Map.of("name", "Dr Replica", "email", "replica." + UUID.randomUUID() + "@clinic.example")))
                    .json().at("/prescriber/id").asText();

            // The pace of create, claim and approve here, measured on a deferred account once the
            // services have warmed up (the first round, on cold JVMs, is several times slower).
            String[] warmUp = partnerWithMember();
            expect(200, call("PUT", "/ops/v1/partners/" + warmUp[0] + "/fulfilment", ops(), Map.of("mode", "deferred")));
            parallel(IntStream.range(0, WARM_UP).boxed().toList(), n -> createAndApprove(warmUp, drugId, prescriberId, null));
            long warmUpStart = System.nanoTime();
            parallel(IntStream.range(0, WARM_UP).boxed().toList(), n -> createAndApprove(warmUp, drugId, prescriberId, null));
            Duration warmUpTook = Duration.ofNanos(System.nanoTime() - warmUpStart);
            assertEquals(0, orders(pharmacy).size(), "a deferred account's approvals reached the pharmacy");

            // All 200 due at one instant: the measured time for 200 times SLACK ahead, at least MIN_AHEAD.
            Duration needed = warmUpTook.multipliedBy(ITEMS).dividedBy(WARM_UP);
            Duration ahead = needed.multipliedBy(SLACK).compareTo(MIN_AHEAD) < 0 ? MIN_AHEAD : needed.multipliedBy(SLACK);
            Instant sendAt = Instant.now().plus(ahead).truncatedTo(ChronoUnit.MILLIS);
            String[] automatic = partnerWithMember();
            long approvalsStart = System.nanoTime();
            List<Item> items = parallel(IntStream.range(0, ITEMS).boxed().toList(),
                    n -> createAndApprove(automatic, drugId, prescriberId, sendAt.toString()));
            Instant approvedAll = Instant.now();
            log("warm-up: " + WARM_UP + " requests in " + warmUpTook.toMillis() + " ms; pharmacySendAt " + ahead.toMillis()
                    + " ms ahead; " + ITEMS + " created and approved in " + Duration.ofNanos(System.nanoTime() - approvalsStart).toMillis()
                    + " ms, " + Duration.between(approvedAll, sendAt).toMillis() + " ms before pharmacySendAt");
            assertTrue(approvedAll.isBefore(sendAt), "the " + ITEMS + " approvals ended at " + approvedAll + ", after their pharmacySendAt "
                    + sendAt + " (warm-up: " + WARM_UP + " in " + warmUpTook.toMillis() + " ms): this run was slower than measured");
            assertEquals(0, orders(pharmacy).size(), "orders reached the pharmacy before their pharmacySendAt");

            // Both dispatchers at work: every order arrives, then nothing more.
            await("200 orders at the pharmacy").atMost(ahead.plusSeconds(60)).pollInterval(Duration.ofMillis(250))
                    .until(() -> orders(pharmacy).size() >= ITEMS);
            await("no order beyond the 200").during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5))
                    .until(() -> orders(pharmacy).size() == ITEMS);

            List<LoggedRequest> orders = orders(pharmacy);
            Set<String> itemIds = items.stream().map(Item::itemId).collect(Collectors.toSet());
            Map<String, Item> byItem = items.stream().collect(Collectors.toMap(Item::itemId, item -> item));
            assertEquals(ITEMS, itemIds.size());
            List<String> keys = orders.stream().map(order -> order.getHeader("Idempotency-Key")).toList();
            assertEquals(ITEMS, keys.size());
            assertEquals(itemIds, new HashSet<>(keys), "the orders' Idempotency-Keys are the item ids, each once");
            Map<String, Integer> perReplica = new HashMap<>();
            for (LoggedRequest order : orders) {
                JsonNode body = JSON.readTree(order.getBodyAsString());
                String key = order.getHeader("Idempotency-Key");
                assertEquals(key, body.path("orderReference").asText());
                assertEquals(byItem.get(key).requestId(), body.path("requestId").asText());
                assertEquals("integration_a", body.path("method").asText());
                assertEquals("pharm-a", body.path("pharmacyId").asText());
                assertTrue(!order.getLoggedDate().toInstant().isBefore(sendAt), "an order before its pharmacySendAt");
                perReplica.merge(order.getUrl(), 1, Integer::sum);
            }
            Instant last = orders.stream().map(order -> order.getLoggedDate().toInstant()).max(Instant::compareTo).orElseThrow();
            log("orders per replica: " + perReplica + "; the last arrived " + Duration.between(sendAt, last).toMillis()
                    + " ms after pharmacySendAt");
            assertEquals(Set.of(FIRST, SECOND), perReplica.keySet(), "orders per replica: " + perReplica);

            // As the partner reads them: sent, with the pharmacy's order id, and one sent_to_pharmacy each.
            List<String> problems = parallel(items, item -> {
                JsonNode detail = expect(200, call("GET", "/v1/requests/" + item.requestId(), key(automatic), null)).json();
                JsonNode line = detail.at("/lineItems/0");
                List<String> actions = new ArrayList<>();
                line.path("history").forEach(entry -> actions.add(entry.path("action").asText()));
                boolean ok = line.path("pharmacySent").asBoolean()
                        && line.path("itemId").asText().equals(item.itemId())
                        && line.path("pharmacySentAt").isTextual()
                        && ("PH-" + item.itemId()).equals(line.at("/prescriptionRecord/pharmacyOrderId").asText())
                        && "sent_to_pharmacy".equals(line.at("/prescriptionRecord/status").asText())
                        && actions.equals(List.of("created", "approved", "sent_to_pharmacy"));
                return ok ? null : item.itemId() + ": " + line;
            }).stream().filter(Objects::nonNull).toList();
            assertEquals(List.of(), problems);
        } finally {
            try {
                if (replica != null) {
                    platform.platform().stopReplica(replica);
                }
                platform.platform().restart(PlatformService.REQUESTS, Map.of());
            } finally {
                pharmacy.stop();
            }
        }
    }

    /** A new partner and one member of it: {partnerId, apiKey, memberId}. */
    private String[] partnerWithMember() throws IOException, InterruptedException {
        JsonNode created = expect(201, call("POST", "/ops/v1/partners", ops(),
                Map.of("name", "Replicas E2E " + UUID.randomUUID()))).json();
        String[] partner = {created.at("/partner/id").asText(), created.path("apiKey").asText(), null};
        partner[2] = expect(201, call("POST", "/v1/members", key(partner), """
                {"firstName": "Frances", "lastName": "Allen", "email": "frances.%s@example.com",
                 "dateOfBirth": "1932-08-04", "state": "NY", "phone": "555-0190",
                 "address": {"street1": "1 Kitchawan Rd", "city": "Yorktown Heights", "state": "NY", "zipCode": "10598"}}"""
                .formatted(UUID.randomUUID()))).json().at("/member/id").asText();
        return partner;
    }

    /** A request created by the partner (with {@code pharmacySendAt} when given), claimed and approved in the console. */
    private Item createAndApprove(String[] partner, String drugId, String prescriberId, String sendAt)
            throws IOException, InterruptedException {
        Map<String, Object> body = new HashMap<>(Map.of("memberId", partner[2], "caseNotes", "Itchy rash on both forearms (replicas run)",
                "items", List.of(Map.of("drugId", drugId, "dosage", "500 mg"))));
        if (sendAt != null) {
            body.put("pharmacySendAt", sendAt);
        }
        String requestId = expect(201, call("POST", "/v1/requests", key(partner), body)).json().path("requestId").asText();
        String itemId = expect(200, call("POST", "/ops/v1/requests/" + requestId + "/claim", ops(),
                Map.of("prescriberId", prescriberId))).json().at("/request/lineItems/0/itemId").asText();
        expect(200, call("POST", "/ops/v1/requests/" + requestId + "/items/" + itemId + "/approve", ops(),
                Map.of("prescriberId", prescriberId, "prescription", Map.of("quantity", 60, "quantityUnits", "tablets",
                        "daysSupply", 30, "directions", "One tablet twice daily", "refills", 2, "dispenseAsWritten", false))));
        return new Item(requestId, itemId);
    }

    private static void log(String line) {
        LOG.log(System.Logger.Level.INFO, "FulfilmentReplicasIT: " + line);
    }

    private static List<LoggedRequest> orders(WireMockServer pharmacy) {
        return pharmacy.findAll(postRequestedFor(urlPathMatching("/orders/.*")));
    }

    // ---- HTTP -----------------------------------------------------------------------------------

    private Map<String, String> ops() {
        return Map.of("x-ops-key", opsKey);
    }

    private static Map<String, String> key(String[] partner) {
        return Map.of("x-api-key", partner[1]);
    }

    private JsonCalls.Answer call(String method, String path, Map<String, String> headers, Object body)
            throws IOException, InterruptedException {
        return calls.call(gateway, method, path, headers, body);
    }

    private static JsonCalls.Answer expect(int status, JsonCalls.Answer answer) {
        return JsonCalls.expect(status, answer);
    }

    /** Applies {@code step} to every input on {@link #CLIENTS} threads; the results in input order. */
    private static <T, R> List<R> parallel(List<T> inputs, Parallel.Step<T, R> step) throws Exception {
        return Parallel.map(CLIENTS, inputs, step);
    }
}
