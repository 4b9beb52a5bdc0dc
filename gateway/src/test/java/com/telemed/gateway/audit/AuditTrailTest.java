package com.telemed.gateway.audit;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.telemed.common.audit.AuditEntry;
import com.telemed.common.audit.AuditQuery;
import com.telemed.gateway.edge.GatewayEdgeTest;
import com.telemed.gateway.edge.UpstreamServer;
import com.telemed.testkit.http.FakeNeighbour;
import com.telemed.testkit.quarkus.InfrastructureResource;
import com.telemed.testkit.trust.TestServiceProofs;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import jakarta.enterprise.inject.Vetoed;
import jakarta.inject.Inject;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /ops/v1/audit} through the edge (people-and-pages.md, "Audit"): the gateway's own entries
 * merged with a service's ({@code GET /internal/audit} of billing, here a fake neighbour on billing's
 * port; the other auditing services, {@link UpstreamServer}, keep none), newest first, a page at a time,
 * an administrator's only; and the entries the gateway writes for its own changes.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = UpstreamServer.class, scope = TestResourceScope.GLOBAL)
class AuditTrailTest {

    private static final String PASSWORD = "a long enough password";

    /**
     * billing-service's audit entries, answering its /internal/audit as the real one does (filters, cursor,
     * limit). Not a bean: started and stopped by the tests that need billing up.
     */
    @Vetoed
    static final class BillingAudit extends FakeNeighbour {

        final List<AuditEntry> entries = new ArrayList<>();

        BillingAudit(String url) {
            super(url, BillingAudit::proven);
        }

        private static boolean proven(HttpServerRequest request) {
            String timestamp = request.getHeader(TestServiceProofs.TIMESTAMP_HEADER);
            return "service:gateway".equals(request.getHeader(TestServiceProofs.PRINCIPAL_HEADER)) && timestamp != null
                    && TestServiceProofs.proof(TestServiceProofs.DEVELOPMENT_KEY, request.method().name(), request.uri(), "",
                    "service:gateway", timestamp).equals(request.getHeader(TestServiceProofs.PROOF_HEADER));
        }

        @Override
        protected void answerNormally(HttpServerRequest request, Call call) {
            Map<String, String> q = call.query();
            AuditQuery query = AuditQuery.internal(q.get("actor"), q.get("action"), q.get("targetId"), q.get("from"), q.get("to"),
                    q.get("limit"), q.get("beforeAt"), q.get("beforeId"));
            JsonArray answer = new JsonArray();
            entries.stream().filter(query::matches).sorted(AuditEntry.NEWEST_FIRST).limit(query.limit()).forEach(entry -> answer.add(
                    new JsonObject().put("id", entry.id().toString()).put("at", entry.at().toString())
                            .put("actorType", entry.actorType()).put("actorId", entry.actorId()).put("action", entry.action())
                            .put("targetType", entry.targetType()).put("targetId", entry.targetId())
                            .put("partnerId", entry.partnerId())));
            answer(request, 200, new JsonObject().put("entries", answer));
        }
    }

    @Inject
    AgroalDataSource dataSource;

    BillingAudit billing;
    String admin;
    String adminToken;

    @BeforeEach
    void setUp() {
        String email = email();
        admin = createAccount(email, "Audit Admin", List.of("admin"));
        adminToken = session(email);
    }

    @AfterEach
    void stopBilling() {
        if (billing != null) {
            billing.stop();
            billing = null;
        }
    }

    private void billingAnswers(AuditEntry... entries) throws Exception {
        billing = new BillingAudit(ConfigProvider.getConfig().getValue("platform.service-urls.billing-service", String.class));
        billing.entries.addAll(List.of(entries));
        billing.start();
    }

    private static String email() {
        return "audit-" + UUID.randomUUID() + "@example.com";
    }

    private static RequestSpecification operator() {
        return given().header("x-ops-key", GatewayEdgeTest.OPS_KEY).contentType("application/json");
    }

    private static RequestSpecification bearer(String token) {
        return given().header("Authorization", "Bearer " + token).contentType("application/json");
    }

    private static String createAccount(String email, String name, List<String> roles) {
        return operator().body(Map.of("email", email, "name", name, "roles", roles, "password", PASSWORD))
                .post("/ops/v1/accounts").then().statusCode(201).extract().path("account.id");
    }

    private static String session(String email) {
        return given().contentType("application/json").body(Map.of("email", email, "password", PASSWORD))
                .post("/ops/v1/sessions").then().statusCode(201).extract().path("token");
    }

    private void insert(AuditEntry entry) throws Exception {
        try (var connection = dataSource.getConnection(); var statement = connection.prepareStatement(
                "INSERT INTO audit_entries (id, at, actor_type, actor_id, action, target_type, target_id, partner_id)"
                        + " VALUES (CAST(? AS uuid), ?, ?, ?, ?, ?, ?, ?)")) {
            statement.setString(1, entry.id().toString());
            statement.setTimestamp(2, Timestamp.from(entry.at()));
            statement.setString(3, entry.actorType());
            statement.setString(4, entry.actorId());
            statement.setString(5, entry.action());
            statement.setString(6, entry.targetType());
            statement.setString(7, entry.targetId());
            statement.setString(8, entry.partnerId());
            statement.executeUpdate();
        }
    }

    private List<Map<String, Object>> rows(String actor) throws Exception {
        try (var connection = dataSource.getConnection(); var query = connection.prepareStatement(
                "SELECT actor_type, action, target_type, target_id, partner_id FROM audit_entries WHERE actor_id = ?"
                        + " ORDER BY action, target_id")) {
            query.setString(1, actor);
            List<Map<String, Object>> rows = new ArrayList<>();
            try (var result = query.executeQuery()) {
                while (result.next()) {
                    Map<String, Object> row = new LinkedHashMap<>();
                    for (int column = 1; column <= 5; column++) {
                        row.put(result.getMetaData().getColumnName(column), result.getObject(column));
                    }
                    rows.add(row);
                }
            }
            return rows;
        }
    }

    private static Map<String, Object> row(String actorType, String action, String targetType, String targetId, String partnerId) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("actor_type", actorType);
        row.put("action", action);
        row.put("target_type", targetType);
        row.put("target_id", targetId);
        row.put("partner_id", partnerId);
        return row;
    }

    private static AuditEntry entry(String id, String at, String actorType, String actorId, String action, String target) {
        return new AuditEntry(UUID.fromString(id), Instant.parse(at), actorType, actorId, action, "request", target, "partner-9");
    }

    private static String json(AuditEntry entry, String name) {
        return new JsonObject().put("id", entry.id().toString()).put("at", entry.at().toString().replace(":00Z", ":00.000Z"))
                .put("actor", new JsonObject().put("type", entry.actorType()).put("id", entry.actorId()).put("name", name))
                .put("action", entry.action()).put("targetType", entry.targetType()).put("targetId", entry.targetId())
                .put("partnerId", entry.partnerId()).encode();
    }

    @Test
    void theTrailMergesTheGatewaysEntriesAndAServicesNewestFirstAPageAtATime() throws Exception {
        String gone = createAccount(email(), "Former Colleague", List.of("support"));
        operator().delete("/ops/v1/accounts/" + gone).then().statusCode(204);
        String target = UUID.randomUUID().toString();
        AuditEntry g1 = entry("00000000-0000-4000-8000-0000000000a1", "2026-11-20T08:00:00Z", "person", admin, "request.claim", target);
        AuditEntry b1 = entry("00000000-0000-4000-8000-0000000000b1", "2026-11-20T08:01:00Z", "pharmacy", "ph-7", "order.update", target);
        AuditEntry g2 = entry("00000000-0000-4000-8000-0000000000a2", "2026-11-20T08:02:00Z", "operator_key", "service", "request.withdraw", target);
        AuditEntry b2 = entry("00000000-0000-4000-8000-0000000000b2", "2026-11-20T08:03:00Z", "person", admin, "request.add_note", target);
        // One instant, two services: PostgreSQL's uuid order (unsigned) puts 8... before 7f... (Java's signed compareTo would not).
        AuditEntry g3 = entry("80000000-0000-4000-8000-0000000000a3", "2026-11-20T08:04:00Z", "person", gone, "request.approve", target);
        AuditEntry b3 = entry("7fffffff-0000-4000-8000-0000000000b3", "2026-11-20T08:04:00Z", "person", admin, "request.deny", target);
        insert(g1);
        insert(g2);
        insert(g3);
        billingAnswers(b1, b2, b3);
        String filters = "?targetId=" + target + "&to=2026-11-21T00:00:00Z&limit=2";

        Response first = bearer(adminToken).get("/ops/v1/audit" + filters);
        first.then().statusCode(200);
        String cursor = first.jsonPath().getString("nextCursor");
        assertNotNull(cursor);
        assertEquals("{\"entries\":[" + json(g3, "Former Colleague") + "," + json(b3, "Audit Admin") + "],\"nextCursor\":\""
                + cursor + "\"}", first.body().asString());

        Response second = bearer(adminToken).get("/ops/v1/audit" + filters + "&after=" + cursor);
        second.then().statusCode(200);
        String cursor2 = second.jsonPath().getString("nextCursor");
        assertEquals("{\"entries\":[" + json(b2, "Audit Admin") + "," + json(g2, "Operator key") + "],\"nextCursor\":\""
                + cursor2 + "\"}", second.body().asString());

        Response third = bearer(adminToken).get("/ops/v1/audit" + filters + "&after=" + cursor2);
        third.then().statusCode(200);
        assertEquals("{\"entries\":[" + json(b1, "ph-7") + "," + json(g1, "Audit Admin") + "],\"nextCursor\":null}",
                third.body().asString());

        // Billing was asked for one more than the page, strictly older than the last entry shown, with the filters.
        List<FakeNeighbour.Call> calls = billing.calls("GET", "/internal/audit");
        assertEquals(3, calls.size());
        assertEquals(Map.of("targetId", target, "to", "2026-11-21T00:00:00Z", "limit", "3"), calls.get(0).query());
        assertEquals(Map.of("targetId", target, "to", "2026-11-21T00:00:00Z", "limit", "3",
                "beforeAt", "2026-11-20T08:04:00Z", "beforeId", b3.id().toString()), calls.get(1).query());
        assertEquals(List.of(), billing.unproven());
    }

    @Test
    void aServiceThatDoesNotAnswerFailsThePage() {
        // billing-service listens nowhere (UpstreamServer): no partial trail.
        Response down = bearer(adminToken).get("/ops/v1/audit");
        down.then().statusCode(503);
        assertEquals("{\"error\":\"Service Unavailable\"}", down.body().asString());
    }

    @Test
    void onlyAnAdministratorReadsTheTrail() {
        String support = email();
        createAccount(support, "Support Person", List.of("support"));
        Response refused = bearer(session(support)).get("/ops/v1/audit");
        refused.then().statusCode(403);
        assertEquals("{\"error\":\"Forbidden\"}", refused.body().asString());
        Response anonymous = given().get("/ops/v1/audit");
        anonymous.then().statusCode(401);
        assertEquals("{\"error\":\"Ops Key missing\"}", anonymous.body().asString());
    }

    @Test
    void badParametersAreRefusedWithTheirIssues() {
        assertEquals("{\"error\":[{\"code\":\"too_small\",\"minimum\":1,\"type\":\"number\",\"inclusive\":true,\"exact\":false,"
                + "\"path\":[\"limit\"],\"message\":\"Number must be greater than or equal to 1\"}]}",
                bearer(adminToken).get("/ops/v1/audit?limit=0").then().statusCode(400).extract().body().asString());
        assertEquals("{\"error\":[{\"code\":\"too_big\",\"maximum\":200,\"type\":\"number\",\"inclusive\":true,\"exact\":false,"
                + "\"path\":[\"limit\"],\"message\":\"Number must be less than or equal to 200\"}]}",
                bearer(adminToken).get("/ops/v1/audit?limit=201").then().statusCode(400).extract().body().asString());
        assertEquals("{\"error\":[{\"code\":\"custom\",\"path\":[\"after\"],\"message\":\"Invalid cursor\"}]}",
                bearer(adminToken).get("/ops/v1/audit?after=bm90LWEtY3Vyc29y").then().statusCode(400).extract().body().asString());
        assertEquals("{\"error\":[{\"code\":\"invalid_string\",\"validation\":\"datetime\",\"path\":[\"from\"],\"message\":\"Invalid datetime\"}]}",
                bearer(adminToken).get("/ops/v1/audit?from=yesterday").then().statusCode(400).extract().body().asString());
    }

    @Test
    void theGatewaysOwnChangesAreAuditedWithTheirActor() throws Exception {
        String partner = bearer(adminToken).body(Map.of("name", "Audited Clinic")).post("/ops/v1/partners")
                .then().statusCode(201).extract().path("partner.id");
        bearer(adminToken).post("/ops/v1/partners/" + partner + "/api-key/rotate").then().statusCode(200);
        bearer(adminToken).body(Map.of("origins", List.of("https://clinic.example"))).put("/ops/v1/partners/" + partner + "/embed-origins")
                .then().statusCode(200);
        String email = email();
        String account = bearer(adminToken).body(Map.of("email", email, "name", "New Colleague", "roles", List.of("support"),
                "password", PASSWORD)).post("/ops/v1/accounts").then().statusCode(201).extract().path("account.id");
        String token = session(email);
        bearer(token).delete("/ops/v1/sessions/current").then().statusCode(204);
        bearer(adminToken).delete("/ops/v1/accounts/" + account).then().statusCode(204);
        String credential = bearer(adminToken).post("/ops/v1/pharmacies/ph-audit/credentials").then().statusCode(201)
                .extract().path("credentialId");
        bearer(adminToken).delete("/ops/v1/pharmacies/ph-audit/credentials/" + credential).then().statusCode(204);
        // Refused or failed changes write nothing.
        bearer(adminToken).post("/ops/v1/partners/" + UUID.randomUUID() + "/api-key/rotate").then().statusCode(404);
        given().contentType("application/json").body(Map.of("email", email, "password", "wrong password"))
                .post("/ops/v1/sessions").then().statusCode(401);

        assertEquals(List.of(
                row("person", "account.create", "account", account, null),
                row("person", "account.delete", "account", account, null),
                row("person", "partner.api_key_rotate", "partner", partner, partner),
                row("person", "partner.create", "partner", partner, partner),
                row("person", "partner.embed_origins_update", "partner", partner, partner),
                row("person", "pharmacy_credential.create", "pharmacy_credential", credential, null),
                row("person", "pharmacy_credential.revoke", "pharmacy_credential", credential, null),
                row("person", "session.create", "session", admin, null)), rows(admin));
        // The colleague signed in and out as themselves.
        assertEquals(List.of(row("person", "session.create", "session", account, null),
                row("person", "session.end", "session", account, null)), rows(account));
        // The operator key is an actor too.
        assertEquals(row("operator_key", "account.create", "account", admin, null), rows("service").stream()
                .filter(each -> admin.equals(each.get("target_id"))).findFirst().orElseThrow());
    }
}
