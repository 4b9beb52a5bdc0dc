package com.telemed.testkit.quarkus;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.testkit.http.RawHttp;
import com.telemed.testkit.trust.SignedQuarkusTests;
import com.telemed.testkit.trust.TestServiceProofs;
import io.restassured.RestAssured;
import io.restassured.specification.RequestSpecification;
import java.net.URI;
import java.sql.DriverManager;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

/**
 * What every service shows on its own: it is live, it is ready with its database (checked against
 * the real server) and without Kafka in readiness (a broker outage must not take the API down),
 * Kafka's state has its own health group, {@code /q/health/group/kafka}, in a service that uses
 * Kafka and no Kafka check at all in one that does not ({@link #usesKafka}), and Flyway, not
 * Hibernate, built its schema. A service test class extends this under {@code @QuarkusTest}.
 *
 * Health and metrics are served on the management port ({@link ManagementPort}), not on the http port.
 *
 * <p>Trust between services: a service serves nothing to a call without a fresh
 * service proof for that method, target, partner and principal ({@code 401 {"error":"Unauthorized"}}), whoever
 * reaches its port; the gateway, the public edge, checks none ({@link #checksServiceProofs}). These
 * tests send their own headers, without the proof every other test gets ({@code SignedQuarkusTests}).
 */
public abstract class ServiceFoundationContract {

    public static final String DATABASE_CHECK = "Database connections health check";
    public static final String KAFKA_CHECK = "Kafka broker";

    /** False for a service that never uses Kafka (the gateway): it carries no Kafka check. */
    protected boolean usesKafka() {
        return true;
    }

    /** False for the gateway: partners and operators reach it with their own credentials. */
    protected boolean checksServiceProofs() {
        return true;
    }

    /**
     * A GET a partner's call can reach in this service (an {@code /internal} or {@code /ops} route where
     * there is one), with the exact answer it gets once proven; {@link #PARTNER} is its partner.
     */
    protected ServedCall servedCall() {
        return new ServedCall("/no/such/path?page=1", 404, "{\"error\":\"Not Found\"}");
    }

    public record ServedCall(String target, int status, String body) {
    }

    public static final String PARTNER = "partner-trust-contract";
    public static final String UNAUTHORIZED = "{\"error\":\"Unauthorized\"}";

    private static String trustKey() {
        return SignedQuarkusTests.applicationKey();
    }

    private static long maxSkewSeconds() {
        return ConfigProvider.getConfig().getOptionalValue("platform.trust.max-skew", Duration.class)
                .orElse(Duration.ofSeconds(60)).toSeconds();
    }

    /** Only what the test sets: no global filter, so no proof unless given. */
    private static RequestSpecification unsigned() {
        return given().noFilters();
    }

    /** The management port (probes and metrics), without a proof: it checks none. */
    private static RequestSpecification unsignedManagement() {
        return ManagementPort.given().noFilters();
    }

    private static RequestSpecification signed(String key, String method, String target, String partnerId, long epochSeconds) {
        return unsigned().headers(TestServiceProofs.headers(key, method, target, partnerId, epochSeconds));
    }

    private static void refused(io.restassured.response.Response response) {
        response.then().statusCode(401).contentType("application/json");
        assertEquals(UNAUTHORIZED, response.body().asString());
    }

    @Test
    void servesAProvenCall() {
        ServedCall call = servedCall();
        var response = signed(trustKey(), "GET", call.target(), PARTNER, Instant.now().getEpochSecond())
                .header("X-Partner-Id", PARTNER).get(call.target());
        response.then().statusCode(call.status()).contentType("application/json");
        assertEquals(call.body(), response.body().asString());
    }

    @Test
    void refusesACallWithoutAProofWhateverItsPath() {
        if (!checksServiceProofs()) {
            unsigned().get("/no/such/path").then().statusCode(404).body("error", equalTo("Not Found"));
            return;
        }
        ServedCall call = servedCall();
        refused(unsigned().get(call.target()));
        // A forged partner header is no proof.
        refused(unsigned().header("X-Partner-Id", PARTNER).get(call.target()));
        refused(unsigned().header("X-Partner-Id", PARTNER).get("/internal/members/" + java.util.UUID.randomUUID()));
        refused(unsigned().contentType("application/json").body("{\"url\":\"https://attacker.example/hook\"}")
                .put("/ops/v1/partners/" + PARTNER + "/webhook"));
        refused(unsigned().post("/ops/v1/partners/" + PARTNER + "/webhook/secret/rotate"));
        refused(unsigned().get("/no/such/path"));
        // Headers without a value, or not a proof at all.
        refused(unsigned().header(TestServiceProofs.TIMESTAMP_HEADER, "").header(TestServiceProofs.PROOF_HEADER, "")
                .get(call.target()));
        refused(unsigned().header(TestServiceProofs.TIMESTAMP_HEADER, String.valueOf(Instant.now().getEpochSecond()))
                .header(TestServiceProofs.PROOF_HEADER, "not-a-proof").get(call.target()));
    }

    @Test
    void refusesAStaleProof() {
        if (!checksServiceProofs()) {
            return;
        }
        ServedCall call = servedCall();
        long now = Instant.now().getEpochSecond();
        long outside = maxSkewSeconds() + 5;
        refused(signed(trustKey(), "GET", call.target(), PARTNER, now - outside).header("X-Partner-Id", PARTNER).get(call.target()));
        refused(signed(trustKey(), "GET", call.target(), PARTNER, now + outside).header("X-Partner-Id", PARTNER).get(call.target()));
    }

    @Test
    void refusesAProofForAnotherPathMethodPartnerOrKey() {
        if (!checksServiceProofs()) {
            return;
        }
        ServedCall call = servedCall();
        String key = trustKey();
        long now = Instant.now().getEpochSecond();
        // Another path, the same path with another query, and the path without its query.
        refused(signed(key, "GET", "/q/health/ready", PARTNER, now).header("X-Partner-Id", PARTNER).get(call.target()));
        refused(signed(key, "GET", call.target() + "&other=1", PARTNER, now).header("X-Partner-Id", PARTNER).get(call.target()));
        String path = call.target().contains("?") ? call.target().substring(0, call.target().indexOf('?')) : call.target() + "?x=1";
        refused(signed(key, "GET", path, PARTNER, now).header("X-Partner-Id", PARTNER).get(call.target()));
        // Another method.
        refused(signed(key, "POST", call.target(), PARTNER, now).header("X-Partner-Id", PARTNER).get(call.target()));
        refused(signed(key, "HEAD", call.target(), PARTNER, now).header("X-Partner-Id", PARTNER).get(call.target()));
        // Another partner, a partner added to a proof made without one, a partner dropped from a proof made with one.
        refused(signed(key, "GET", call.target(), "partner-other", now).header("X-Partner-Id", PARTNER).get(call.target()));
        refused(signed(key, "GET", call.target(), null, now).header("X-Partner-Id", PARTNER).get(call.target()));
        refused(signed(key, "GET", call.target(), PARTNER, now).get(call.target()));
        // A second partner header beside the signed one.
        refused(signed(key, "GET", call.target(), PARTNER, now).header("X-Partner-Id", PARTNER).header("X-Partner-Id", "partner-other")
                .get(call.target()));
        // Another key.
        refused(signed(key + "-guessed", "GET", call.target(), PARTNER, now).header("X-Partner-Id", PARTNER).get(call.target()));
        // A principal the proof does not cover (issue #40): added to a proof made without one, or changed.
        refused(unsigned().headers(TestServiceProofs.headers(key, "GET", call.target(), PARTNER, null, now))
                .header("X-Partner-Id", PARTNER).header(TestServiceProofs.PRINCIPAL_HEADER, TestServiceProofs.OPERATOR_KEY).get(call.target()));
        Map<String, String> changed = new java.util.HashMap<>(TestServiceProofs.headers(key, "GET", call.target(), PARTNER,
                TestServiceProofs.person("acc_contract", null, "support"), now));
        changed.put(TestServiceProofs.PRINCIPAL_HEADER, TestServiceProofs.person("acc_contract", null, "admin"));
        refused(unsigned().headers(changed).header("X-Partner-Id", PARTNER).get(call.target()));
    }

    /** Documented, not wanted: there is no nonce, so a proof is good again until it is stale (docs/security.md). */
    @Test
    void acceptsTheSameProofAgainWithinTheWindow() {
        ServedCall call = servedCall();
        Map<String, String> proof = TestServiceProofs.headers(trustKey(), "GET", call.target(), PARTNER);
        for (int i = 0; i < 2; i++) {
            unsigned().headers(proof).header("X-Partner-Id", PARTNER).get(call.target()).then().statusCode(call.status());
        }
    }

    @Test
    void servesItsProbesWithoutAProof() throws Exception {
        // Failing, each prints the report: which check was DOWN.
        unsignedManagement().get("/q/health/ready").then().log().ifValidationFails().statusCode(200).body("status", equalTo("UP"));
        unsignedManagement().get("/q/health/live").then().log().ifValidationFails().statusCode(200).body("status", equalTo("UP"));
        unsignedManagement().get("/q/health").then().log().ifValidationFails().statusCode(200).body("status", equalTo("UP"));
        if (checksServiceProofs()) {
            refused(unsigned().get("/q/healthz"));
            // A probe's path is no way around the check: it is decided on the path routes see.
            try (RawHttp http = new RawHttp(URI.create(RestAssured.baseURI + ":" + RestAssured.port), Duration.ofSeconds(10))) {
                for (String target : List.of("/q/health/../../internal/members/x", "/q/health/%2e%2e/%2e%2e/internal/members/x")) {
                    RawHttp.Response response = http.send(new RawHttp.Request("GET", target,
                            List.of(new RawHttp.Header("X-Partner-Id", PARTNER)), null, false));
                    assertEquals(401, response.status(), target);
                    assertEquals(UNAUTHORIZED, response.bodyText(), target);
                }
            }
        }
    }

    /**
     * Health and metrics are on the management port only: on the http port they are unknown paths (404 JSON
     * once past the service proof check, which refuses them without a proof like any other path).
     */
    @Test
    void servesNoHealthOrMetricsOnItsHttpPort() {
        for (String target : List.of("/q/health", "/q/health/ready", "/q/health/live", "/q/metrics")) {
            var response = checksServiceProofs()
                    ? signed(trustKey(), "GET", target, PARTNER, Instant.now().getEpochSecond()).header("X-Partner-Id", PARTNER).get(target)
                    : unsigned().get(target);
            response.then().statusCode(404).contentType("application/json");
            assertEquals("{\"error\":\"Not Found\"}", response.body().asString(), target);
            if (checksServiceProofs()) {
                refused(unsigned().get(target));
            }
        }
        ManagementPort.given().noFilters().accept("text/plain").get("/q/metrics").then().statusCode(200);
    }

    @Test
    void isLive() {
        ManagementPort.given().when().get("/q/health/live")
                .then().statusCode(200).body("status", equalTo("UP"));
    }

    @Test
    void isReadyWithItsDatabaseAndWithoutKafka() {
        ManagementPort.given().when().get("/q/health/ready")
                .then().statusCode(200)
                .body("status", equalTo("UP"))
                .body("checks.name", hasItem(DATABASE_CHECK))
                .body("checks.find { it.name == '" + DATABASE_CHECK + "' }.status", equalTo("UP"))
                .body("checks.name", not(hasItem(KAFKA_CHECK)));
    }

    /**
     * Startup names no Kafka channel: a pod started while the broker is away must pass its startup probe,
     * as readiness leaves Kafka out (SmallRye Kafka's per-channel startup report, which counts each
     * channel's broker connections, is turned off channel by channel).
     */
    @Test
    void startupLeavesKafkaOut() {
        ManagementPort.given().when().get("/q/health/started").then().log().ifValidationFails()
                .statusCode(200)
                .body("status", equalTo("UP"))
                .body("checks.findAll { it.data != null }.collectMany { it.data.keySet() }", empty());
    }

    @Test
    void kafkaIsItsOwnHealthGroup() {
        if (usesKafka()) {
            ManagementPort.given().when().get("/q/health/group/kafka")
                    .then().statusCode(200)
                    .body("status", equalTo("UP"))
                    .body("checks.name", equalTo(List.of(KAFKA_CHECK)))
                    .body("checks[0].status", equalTo("UP"));
        } else {
            ManagementPort.given().when().get("/q/health/group/kafka")
                    .then().body("checks.name", not(hasItem(KAFKA_CHECK)));
            ManagementPort.given().when().get("/q/health/group")
                    .then().body("checks.name", not(hasItem(KAFKA_CHECK)));
        }
        ManagementPort.given().when().get("/q/health")
                .then().body("checks.name", not(hasItem(KAFKA_CHECK)));
    }

    @Test
    void ownsAFlywayMigratedDatabase() throws Exception {
        var config = ConfigProvider.getConfig();
        try (var connection = DriverManager.getConnection(
                config.getValue("quarkus.datasource.jdbc.url", String.class),
                config.getValue("quarkus.datasource.username", String.class),
                config.getValue("quarkus.datasource.password", String.class));
             var rows = connection.createStatement().executeQuery(
                     "SELECT version, success FROM flyway_schema_history WHERE version = '1'")) {
            assertTrue(rows.next(), "V1 migration recorded");
            assertEquals("1", rows.getString("version"));
            assertTrue(rows.getBoolean("success"));
        }
    }

    @Test
    void answersUnknownPathsWithJson() {
        given().when().get("/no/such/path")
                .then().statusCode(404)
                .contentType("application/json")
                .body("error", equalTo("Not Found"));
    }
}
