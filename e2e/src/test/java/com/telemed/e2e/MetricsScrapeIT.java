package com.telemed.e2e;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.testkit.e2e.RunningPlatform;
import com.telemed.testkit.metrics.PrometheusText;
import com.telemed.testkit.platform.PlatformService;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Every service's {@code /q/metrics} after traffic through the gateway (docs/architecture.md,
 * "Metrics"): a partner with a webhook URL, a member, a request approved by an operator and sent
 * automatically to the (sandbox) pharmacy, the delivered webhook, a billing summary. Scraped
 * without a service proof, each service shows its HTTP server timers by route template (no id in
 * any {@code uri} tag), its database pool, its outbox gauges, its Kafka consumer lag, its periodic
 * jobs' runs and failures, and requests-service and webhook-service their outcomes.
 */
@ExtendWith(RunningPlatform.class)
class MetricsScrapeIT {

    private static final String HTTP = "http_server_requests_seconds_count";
    private static final Pattern ID = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|ord_|apx_|pk_");
    private static final Map<String, Object> PRESCRIPTION = Map.of("quantity", 30, "quantityUnits", "tablets",
            "daysSupply", 30, "directions", "One tablet daily", "refills", 1, "dispenseAsWritten", false);

    private static final Set<PlatformService> WITH_OUTBOX =
            EnumSet.of(PlatformService.REQUESTS, PlatformService.MEMBERS, PlatformService.MESSAGING, PlatformService.CATALOGUE);
    private static final Set<PlatformService> CONSUMERS =
            EnumSet.of(PlatformService.MESSAGING, PlatformService.BILLING, PlatformService.WEBHOOK, PlatformService.REQUESTS);
    private static final Map<PlatformService, List<String>> JOBS = new EnumMap<>(Map.of(
            // Issue #40: requests-service prunes audit entries older than six years; issue #42: the sandbox's autopilot.
            PlatformService.REQUESTS, List.of("outbox-relay", "fulfilment-dispatcher", "appointment-reminders", "catalogue-copy-sync",
                    "retention", "sandbox-autopilot"),
            PlatformService.MEMBERS, List.of("outbox-relay"),
            // Issue #40: catalogue prunes audit entries older than six years.
            PlatformService.CATALOGUE, List.of("outbox-relay", "retention"),
            PlatformService.MESSAGING, List.of("outbox-relay", "mail-relay", "retention"),
            PlatformService.BILLING, List.of("retention"),
            // Issue #40: the gateway prunes old sign-in failures and long-expired sessions.
            PlatformService.GATEWAY, List.of("retention"),
            PlatformService.WEBHOOK, List.of("webhook-dispatcher", "webhook-recorder", "retention")));

    private RunningPlatform.Handle platform;

    private RequestSpecification ops() {
        return given().baseUri(platform.gateway().toString()).header("x-ops-key", platform.opsKey()).contentType(ContentType.JSON);
    }

    @Test
    void everyServiceExportsItsMetricsAfterTraffic(RunningPlatform.Handle platform) throws Exception {
        this.platform = platform;
        try (WebhookReceiver receiver = new WebhookReceiver((post, attempt) -> 204)) {
            JsonPath partner = ops().body(Map.of("name", "Metrics E2E " + UUID.randomUUID()))
                    .post("/ops/v1/partners").then().statusCode(201).extract().jsonPath();
            String partnerId = partner.getString("partner.id");
            String apiKey = partner.getString("apiKey");
            ops().body(Map.of("url", receiver.url())).put("/ops/v1/partners/" + partnerId + "/webhook").then().statusCode(200);
            ops().body(Map.of("enabled", true, "cycle", "monthly", "ratePerMember", 25.5))
                    .put("/ops/v1/partners/" + partnerId + "/billing").then().statusCode(200);
            String drugId = "metrics-e2e-" + UUID.randomUUID().toString().substring(0, 8);
            ops().body("""
                            {"name": "Metrics E2E", "classification": "non-controlled",
                             "skus": [{"label": "5 mg", "active": true}], "pharmacy": {"id": "pharm-e2e-a", "method": "integration_a"}}""")
                    .put("/ops/v1/drugs/" + drugId).then().statusCode(200);
            ops().body(Map.of("drugIds", List.of(drugId))).put("/ops/v1/partners/" + partnerId + "/drug-access").then().statusCode(200);
            String prescriberId = ops().body(Map.of("name", "Dr Metrics", "email", "metrics." + UUID.randomUUID() + "@clinic.example"))
                    .post("/ops/v1/prescribers").then().statusCode(201).extract().path("prescriber.id");
            RequestSpecification asPartner = given().baseUri(platform.gateway().toString()).header("x-api-key", apiKey);
            String memberId = given().spec(asPartner).contentType(ContentType.JSON).body("""
                            {"firstName": "Katherine", "lastName": "Johnson", "email": "katherine.%s@example.com",
                             "dateOfBirth": "1918-08-26", "state": "VA", "phone": "555-0199",
                             "address": {"street1": "1 Langley Rd", "city": "Hampton", "state": "VA", "zipCode": "23665"}}"""
                            .formatted(UUID.randomUUID()))
                    .post("/v1/members").then().statusCode(201).extract().path("member.id");
            given().spec(asPartner).get("/v1/members/" + memberId).then().statusCode(200);
            String requestId = given().spec(asPartner).contentType(ContentType.JSON)
                    .body(Map.of("memberId", memberId, "caseNotes", "Wakes at night with a dry cough (metrics run)", "items", List.of(Map.of("drugId", drugId, "dosage", "5 mg"))))
                    .post("/v1/requests").then().statusCode(201).extract().path("requestId");
            String itemId = given().spec(asPartner).get("/v1/requests/" + requestId).then().statusCode(200)
                    .extract().path("lineItems[0].itemId");
            ops().body(Map.of("prescriberId", prescriberId, "prescription", PRESCRIPTION))
                    .post("/ops/v1/requests/" + requestId + "/items/" + itemId + "/approve").then().statusCode(200);
            // Up to two hold retries (30 s each): on a busy machine a hold check can time out once.
            await("the automatic transmission").atMost(Duration.ofSeconds(100)).pollInterval(Duration.ofMillis(200))
                    .until(() -> given().spec(asPartner).get("/v1/requests/" + requestId).then().statusCode(200)
                            .extract().jsonPath().getBoolean("lineItems[0].pharmacySent"));
            receiver.await("item.approved", 1, Duration.ofSeconds(60));
            given().spec(asPartner).get("/v1/billing").then().statusCode(200);
            given().spec(asPartner).get("/v1/requests/" + UUID.randomUUID()).then().statusCode(404);
            // A page's asset through the gateway: the web service's 2xx.
            given().baseUri(platform.gateway().toString()).get("/assets/web/style.css").then().statusCode(200);

            await("every service's metrics").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1))
                    .untilAsserted(this::everyServiceShowsItsMetrics);
        }
    }

    private void everyServiceShowsItsMetrics() {
        for (PlatformService service : PlatformService.values()) {
            PrometheusText scrape = scrape(service);
            String name = service.module();

            // HTTP server timers: templates only.
            List<PrometheusText.Sample> http = scrape.named(HTTP);
            assertFalse(http.isEmpty(), name + ": no " + HTTP);
            for (PrometheusText.Sample sample : http) {
                assertFalse(ID.matcher(sample.label("uri")).find(), name + ": an id in " + sample);
                assertFalse(sample.label("uri").startsWith("/q/"), name + ": a /q endpoint in " + sample);
            }
            assertTrue(http.stream().anyMatch(sample -> sample.label("status").startsWith("2")), name + ": no 2xx");

            // The database pool (the web service has no database: no pool).
            for (String gauge : List.of("agroal_active_count", "agroal_available_count", "agroal_awaiting_count", "agroal_max_used_count")) {
                assertEquals(service.hasDatabase() ? 1 : 0, scrape.find(gauge, Map.of("datasource", "default")).size(), name + ": " + gauge);
            }

            if (WITH_OUTBOX.contains(service)) {
                assertEquals(1, scrape.named("outbox_backlog").size(), name + ": outbox_backlog");
                assertEquals(1, scrape.named("outbox_oldest_age_seconds").size(), name + ": outbox_oldest_age_seconds");
                assertTrue(scrape.named("outbox_oldest_age_seconds").get(0).value() >= 0, name + ": outbox age");
            } else {
                assertTrue(scrape.named("outbox_backlog").isEmpty(), name + ": outbox_backlog without an outbox");
            }

            if (CONSUMERS.contains(service)) {
                assertFalse(scrape.named("kafka_consumer_fetch_manager_records_lag_max").isEmpty(), name + ": consumer lag");
            } else {
                assertTrue(scrape.named("kafka_consumer_fetch_manager_records_lag_max").isEmpty(), name + ": lag without a consumer");
            }

            List<String> jobs = new ArrayList<>(JOBS.getOrDefault(service, List.of()));
            assertEquals(jobs.stream().sorted().toList(),
                    scrape.named("job_runs_total").stream().map(sample -> sample.label("job")).sorted().toList(), name + ": jobs");
            for (String job : jobs) {
                assertTrue(scrape.find("job_runs_total", Map.of("job", job)).get(0).value() >= 1, name + ": " + job + " never ran");
                assertEquals(1, scrape.find("job_failures_total", Map.of("job", job)).size(), name + ": " + job + " failures");
            }
        }

        // Per service, a call the traffic made, by its template.
        assertCalled(PlatformService.GATEWAY, "GET", "200", "/v1/requests/**");
        assertCalled(PlatformService.GATEWAY, "POST", "201", "/ops/v1/partners");
        assertCalled(PlatformService.GATEWAY, "GET", "404", "/v1/requests/**");
        assertCalled(PlatformService.REQUESTS, "GET", "200", "/v1/requests/{id}");
        assertCalled(PlatformService.REQUESTS, "GET", "404", "/v1/requests/{id}");
        assertCalled(PlatformService.MEMBERS, "GET", "200", "/v1/members/{id}");
        assertCalled(PlatformService.CATALOGUE, "PUT", "200", "/ops/v1/drugs/{drugId}");
        assertCalled(PlatformService.BILLING, "GET", "200", "/v1/billing");
        assertCalled(PlatformService.BILLING, "PUT", "200", "/ops/v1/partners/{partnerId}/billing");
        assertCalled(PlatformService.GATEWAY, "PUT", "200", "/ops/v1/partners/{partnerId}/billing");
        assertCalled(PlatformService.WEBHOOK, "PUT", "200", "/ops/v1/partners/{partnerId}/webhook");

        // Outcomes: the sandbox pharmacy accepted the order; the webhook was delivered.
        PrometheusText requests = scrape(PlatformService.REQUESTS);
        assertTrue(requests.find("pharmacy_transmissions_total",
                Map.of("method", "integration_a", "outcome", "accepted", "reason", "none")).get(0).value() >= 1);
        PrometheusText webhook = scrape(PlatformService.WEBHOOK);
        assertTrue(webhook.find("webhook_deliveries_total", Map.of("outcome", "delivered")).get(0).value() >= 1);
        assertEquals(Set.of("delivered", "retried", "failed", "dropped"), Set.copyOf(
                webhook.named("webhook_deliveries_total").stream().map(sample -> sample.label("outcome")).toList()));
    }

    private void assertCalled(PlatformService service, String method, String status, String uri) {
        List<PrometheusText.Sample> found = scrape(service).find(HTTP, Map.of("method", method, "status", status, "uri", uri));
        assertEquals(1, found.size(), service.module() + ": " + method + " " + uri + " " + status);
        assertTrue(found.get(0).value() >= 1);
    }

    /** {@code /q/metrics} of a service, straight from its management port, without a service proof. */
    private PrometheusText scrape(PlatformService service) {
        String text = given().baseUri(platform.managementUrl(service).toString()).accept("text/plain").get("/q/metrics")
                .then().statusCode(200).extract().asString();
        return PrometheusText.parse(text);
    }
}
