package com.telemed.gateway.identity;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.common.retention.RetentionJob;
import com.telemed.gateway.edge.GatewayEdgeTest;
import com.telemed.gateway.edge.UpstreamServer;
import com.telemed.gateway.partner.Keys;
import com.telemed.testkit.quarkus.InfrastructureResource;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusMock;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * People and pharmacies on /ops (issue #40; people-and-pages.md, "Credentials on /ops"): local
 * accounts, sign-in and its limit, sessions, pharmacy keys, and the principal the edge passes on.
 * In the gateway's usual test configuration (sandbox: local accounts on).
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = UpstreamServer.class, scope = TestResourceScope.GLOBAL)
class IdentityTest {

    private static final String PASSWORD = "a long enough password";
    private static final String UUID_V4 = "[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}";
    private static final String INVALID_TOKEN = "{\"error\":\"Invalid token\"}";

    @Inject
    AgroalDataSource dataSource;

    @Inject
    RetentionJob retention;

    private static RequestSpecification operator() {
        return given().header("x-ops-key", GatewayEdgeTest.OPS_KEY).contentType("application/json");
    }

    private static RequestSpecification bearer(String token) {
        return given().header("Authorization", "Bearer " + token).contentType("application/json");
    }

    private static String email() {
        return "person-" + UUID.randomUUID() + "@example.com";
    }

    private static Map<String, Object> account(String email, List<String> roles, String prescriberId) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("email", email);
        body.put("name", "Dr Ada Example");
        body.put("roles", roles);
        if (prescriberId != null) {
            body.put("prescriberId", prescriberId);
        }
        body.put("password", PASSWORD);
        return body;
    }

    private static String createAccount(String email, List<String> roles, String prescriberId) {
        return operator().body(account(email, roles, prescriberId)).post("/ops/v1/accounts")
                .then().statusCode(201).extract().path("account.id");
    }

    private static Response signIn(String email, String password) {
        return given().contentType("application/json").body(Map.of("email", email, "password", password))
                .post("/ops/v1/sessions");
    }

    private static String session(String email) {
        return signIn(email, PASSWORD).then().statusCode(201).extract().path("token");
    }

    private void execute(String sql, Object... parameters) throws Exception {
        try (var connection = dataSource.getConnection(); var statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            statement.executeUpdate();
        }
    }

    private Map<String, Object> row(String sql, Object parameter) throws Exception {
        try (var connection = dataSource.getConnection(); var query = connection.prepareStatement(sql)) {
            query.setObject(1, parameter);
            try (var rows = query.executeQuery()) {
                assertTrue(rows.next(), "no row");
                Map<String, Object> row = new LinkedHashMap<>();
                for (int column = 1; column <= rows.getMetaData().getColumnCount(); column++) {
                    row.put(rows.getMetaData().getColumnName(column), rows.getObject(column));
                }
                return row;
            }
        }
    }

    private static void assertNoValueHolds(Map<String, Object> row, String secret) {
        row.forEach((column, value) -> assertFalse(String.valueOf(value).contains(secret), column + " holds the secret"));
    }

    @Test
    void anAdminCreatesListsAndDeletesAccounts() throws Exception {
        String email = email();
        String prescriberId = UUID.randomUUID().toString();
        JsonPath created = operator().body(account(email, List.of("support", "prescriber", "admin"), prescriberId))
                .post("/ops/v1/accounts").then().statusCode(201)
                .body("account.id", matchesPattern(UUID_V4))
                .body("account.createdAt", matchesPattern("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z"))
                .extract().jsonPath();
        String id = created.getString("account.id");
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("id", id);
        expected.put("email", email);
        expected.put("name", "Dr Ada Example");
        expected.put("roles", List.of("admin", "prescriber", "support"));
        expected.put("prescriberId", prescriberId);
        expected.put("createdAt", created.getString("account.createdAt"));
        assertEquals(Map.of("account", expected), created.getMap(""));

        String supportId = createAccount(email(), List.of("support"), null);
        List<Map<String, Object>> listed = operator().get("/ops/v1/accounts").then().statusCode(200).extract().path("accounts");
        assertTrue(listed.contains(expected), listed.toString());
        Map<String, Object> support = listed.stream().filter(account -> account.get("id").equals(supportId)).findFirst().orElseThrow();
        assertTrue(support.containsKey("prescriberId"));
        assertNull(support.get("prescriberId"));

        // The password is stored only as an Argon2id PHC string.
        Map<String, Object> stored = row("SELECT * FROM accounts WHERE id = ?", UUID.fromString(id));
        assertTrue(String.valueOf(stored.get("password_hash")).startsWith("$argon2id$v=19$m=19456,t=2,p=1$"));
        assertNoValueHolds(stored, PASSWORD);

        operator().delete("/ops/v1/accounts/" + id).then().statusCode(204).body(equalTo(""));
        List<Map<String, Object>> after = operator().get("/ops/v1/accounts").then().statusCode(200).extract().path("accounts");
        assertFalse(after.stream().anyMatch(account -> account.get("id").equals(id)));
        operator().delete("/ops/v1/accounts/" + id).then().statusCode(404).body("error", equalTo("Account not found"));
        operator().delete("/ops/v1/accounts/not-a-uuid").then().statusCode(404).body("error", equalTo("Account not found"));
        // A deleted account frees its email and its prescriber.
        createAccount(email.toUpperCase(), List.of("prescriber"), prescriberId);
    }

    @Test
    void anAccountIsValidatedAsEveryOpsBodyIs() {
        assertEquals("{\"error\":["
                        + "{\"code\":\"invalid_type\",\"expected\":\"string\",\"received\":\"undefined\",\"path\":[\"email\"],\"message\":\"Required\"},"
                        + "{\"code\":\"invalid_type\",\"expected\":\"string\",\"received\":\"undefined\",\"path\":[\"name\"],\"message\":\"Required\"},"
                        + "{\"code\":\"invalid_type\",\"expected\":\"array\",\"received\":\"undefined\",\"path\":[\"roles\"],\"message\":\"Required\"},"
                        + "{\"code\":\"invalid_type\",\"expected\":\"string\",\"received\":\"undefined\",\"path\":[\"password\"],\"message\":\"Required\"}]}",
                operator().body("{}").post("/ops/v1/accounts").then().statusCode(400).extract().asString());

        Map<String, Object> shortPassword = account("not an email", List.of("admin"), null);
        shortPassword.put("password", "eleven char");
        assertEquals("{\"error\":["
                        + "{\"code\":\"invalid_string\",\"validation\":\"email\",\"path\":[\"email\"],\"message\":\"Invalid email\"},"
                        + "{\"code\":\"too_small\",\"minimum\":12,\"type\":\"string\",\"inclusive\":true,\"exact\":false,\"path\":[\"password\"],"
                        + "\"message\":\"String must contain at least 12 character(s)\"}]}",
                operator().body(shortPassword).post("/ops/v1/accounts").then().statusCode(400).extract().asString());

        assertEquals("{\"error\":[{\"code\":\"custom\",\"path\":[\"prescriberId\"],\"message\":\"prescriberId is required for a prescriber account\"}]}",
                operator().body(account(email(), List.of("prescriber"), null)).post("/ops/v1/accounts")
                        .then().statusCode(400).extract().asString());
        assertEquals("{\"error\":[{\"code\":\"custom\",\"path\":[\"prescriberId\"],\"message\":\"prescriberId is only for a prescriber account\"}]}",
                operator().body(account(email(), List.of("admin"), UUID.randomUUID().toString())).post("/ops/v1/accounts")
                        .then().statusCode(400).extract().asString());
        assertEquals("{\"error\":[{\"code\":\"invalid_enum_value\",\"received\":\"pharmacy\",\"options\":[\"admin\",\"prescriber\",\"support\"],"
                        + "\"path\":[\"roles\",0],\"message\":\"Invalid enum value. Expected 'admin' | 'prescriber' | 'support', received 'pharmacy'\"}]}",
                operator().body(account(email(), List.of("pharmacy"), null)).post("/ops/v1/accounts")
                        .then().statusCode(400).extract().asString());
        assertEquals("{\"error\":[{\"code\":\"too_small\",\"minimum\":1,\"type\":\"array\",\"inclusive\":true,\"exact\":false,"
                        + "\"path\":[\"roles\"],\"message\":\"Array must contain at least 1 element(s)\"}]}",
                operator().body(account(email(), List.of(), null)).post("/ops/v1/accounts")
                        .then().statusCode(400).extract().asString());
        Map<String, Object> twoLines = account(email(), List.of("admin"), null);
        twoLines.put("name", "Ada\nBcc: someone");
        assertEquals("{\"error\":[{\"code\":\"custom\",\"path\":[\"name\"],\"message\":\"Invalid character\"}]}",
                operator().body(twoLines).post("/ops/v1/accounts").then().statusCode(400).extract().asString());
        operator().body(account(email(), List.of("prescriber"), "pr_123")).post("/ops/v1/accounts")
                .then().statusCode(400).body("error", equalTo("Prescriber not found"));
        operator().body("{\"email\":").post("/ops/v1/accounts").then().statusCode(400).body("error", equalTo("Invalid JSON"));

        String email = email();
        String prescriberId = UUID.randomUUID().toString();
        createAccount(email, List.of("prescriber"), prescriberId);
        operator().body(account(email.toUpperCase(), List.of("admin"), null)).post("/ops/v1/accounts")
                .then().statusCode(400).body("error", equalTo("Account with this email already exists"));
        operator().body(account(email(), List.of("prescriber"), prescriberId)).post("/ops/v1/accounts")
                .then().statusCode(400).body("error", equalTo("Account for this prescriber already exists"));
    }

    /**
     * operations-api.md: a {@code prescriberId} must name an existing prescriber, which requests-service
     * knows (its internal prescriber read, through the remote-call policy, before the account's
     * transaction); requests-service down is the gateway's 503 for an unavailable service.
     */
    @Test
    void aPrescriberAccountNamesAPrescriberRequestsServiceKnows() throws Exception {
        String unknown = email();
        operator().body(account(unknown, List.of("prescriber"), UpstreamServer.UNKNOWN_PRESCRIBER)).post("/ops/v1/accounts")
                .then().statusCode(400).body(equalTo("{\"error\":\"Prescriber not found\"}"));
        String unavailable = email();
        operator().body(account(unavailable, List.of("prescriber"), UpstreamServer.UNAVAILABLE_PRESCRIBER)).post("/ops/v1/accounts")
                .then().statusCode(503).body(equalTo("{\"error\":\"Service Unavailable\"}"));
        for (String email : List.of(unknown, unavailable)) {
            try (var connection = dataSource.getConnection();
                 var query = connection.prepareStatement("SELECT count(*) FROM accounts WHERE email = ?")) {
                query.setString(1, email);
                try (var rows = query.executeQuery()) {
                    rows.next();
                    assertEquals(0, rows.getInt(1), "nothing written for " + email);
                }
            }
        }
        createAccount(email(), List.of("prescriber"), UUID.randomUUID().toString());
    }

    @Test
    void aSignInOpensASessionOf12HoursStoredOnlyAsItsHash() throws Exception {
        String email = email();
        String prescriberId = UUID.randomUUID().toString();
        String id = createAccount(email, List.of("prescriber", "admin"), prescriberId);
        Instant before = Instant.now();
        // Any letter case of the email.
        JsonPath signedIn = signIn(email.toUpperCase(), PASSWORD).then().statusCode(201)
                .body("token", matchesPattern("ops_[0-9a-f]{32}"))
                .extract().jsonPath();
        assertEquals(Set.of("token", "expiresAt"), signedIn.getMap("").keySet());
        String token = signedIn.getString("token");
        Instant expiresAt = Instant.parse(signedIn.getString("expiresAt"));
        assertTrue(!expiresAt.isBefore(before.plus(Duration.ofHours(12)).minusSeconds(1))
                && !expiresAt.isAfter(Instant.now().plus(Duration.ofHours(12))), expiresAt.toString());

        Map<String, Object> stored = row("SELECT * FROM sessions WHERE token_hash = ?", Keys.hash(token));
        assertEquals(UUID.fromString(id), stored.get("account_id"));
        assertNull(stored.get("ended_at"));
        assertNoValueHolds(stored, token);

        // The session opens the gateway's own endpoints (a body read after the lookup) and forwarded ones.
        bearer(token).body(account(email(), List.of("support"), null)).post("/ops/v1/accounts")
                .then().statusCode(201).body("account.roles", equalTo(List.of("support")));
        bearer(token).get("/ops/v1/accounts").then().statusCode(200);
        bearer(token).header("X-Principal", "person:" + UUID.randomUUID() + ":admin:").get("/ops/v1/review/queue")
                .then().statusCode(200)
                .body("headers.x-principal", equalTo("person:" + id + ":admin,prescriber:" + prescriberId))
                .body("headers.authorization", nullValue())
                .body("headers.x-partner-id", nullValue());
    }

    @Test
    void aWrongPasswordAndAnUnknownEmailGetTheSameAnswer() {
        String email = email();
        createAccount(email, List.of("admin"), null);
        Response wrongPassword = signIn(email, PASSWORD + "!");
        Response unknownEmail = signIn(email(), PASSWORD);
        for (Response refused : List.of(wrongPassword, unknownEmail)) {
            refused.then().statusCode(401).contentType("application/json");
            assertEquals("{\"error\":\"Invalid email or password\"}", refused.asString());
        }
        assertEquals("{\"error\":[{\"code\":\"invalid_type\",\"expected\":\"string\",\"received\":\"undefined\",\"path\":[\"email\"],\"message\":\"Required\"},"
                        + "{\"code\":\"invalid_type\",\"expected\":\"string\",\"received\":\"undefined\",\"path\":[\"password\"],\"message\":\"Required\"}]}",
                given().contentType("application/json").body("{}").post("/ops/v1/sessions").then().statusCode(400).extract().asString());
        given().contentType("application/json").body(Map.of("email", email, "password", "p".repeat(257)))
                .post("/ops/v1/sessions").then().statusCode(400).body("error[0].message", equalTo("String must contain at most 256 character(s)"));
    }

    @Test
    void fiveFailuresForOneEmailWithin15MinutesRefuseItsSignInsWithRetryAfter() throws Exception {
        String email = email();
        createAccount(email, List.of("admin"), null);
        for (int attempt = 0; attempt < 5; attempt++) {
            signIn(email, "wrong password " + attempt).then().statusCode(401).body("error", equalTo("Invalid email or password"));
        }
        for (String password : List.of("wrong again, sixth", PASSWORD)) {
            Response limited = signIn(email.toUpperCase(), password);
            limited.then().statusCode(429).contentType("application/json");
            assertEquals("{\"error\":\"Too Many Requests\"}", limited.asString());
            int retryAfter = Integer.parseInt(limited.header("Retry-After"));
            assertTrue(retryAfter > 880 && retryAfter <= 900, "Retry-After " + retryAfter);
        }
        // Another email is not limited; an unknown email is limited exactly as a known one.
        String unknown = email();
        for (int attempt = 0; attempt < 5; attempt++) {
            signIn(unknown, PASSWORD).then().statusCode(401).body("error", equalTo("Invalid email or password"));
        }
        signIn(unknown, PASSWORD).then().statusCode(429);
        // Failures are counted by the email's hash, never the email; once the oldest is 15 minutes old, one more may come.
        Map<String, Object> failure = row("SELECT * FROM sign_in_failures WHERE email_hash = ? LIMIT 1", Keys.hash(email));
        assertNoValueHolds(failure, email);
        execute("UPDATE sign_in_failures SET at = at - interval '15 minutes' WHERE id = ?", failure.get("id"));
        assertNotNull(session(email));
    }

    /** The count is exact under concurrency: eight wrong attempts at once give five 401 and three 429, and then every one 429. */
    @Test
    void theLimitIsExactUnderConcurrentFailures() throws Exception {
        String email = email();
        createAccount(email, List.of("support"), null);
        assertEquals(Map.of(401, 5, 429, 3), concurrently(email, 8));
        assertEquals(Map.of(429, 2), concurrently(email, 2));
    }

    private static Map<Integer, Integer> concurrently(String email, int attempts) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(attempts);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Integer>> statuses = new ArrayList<>();
            for (int i = 0; i < attempts; i++) {
                statuses.add(pool.submit(() -> {
                    start.await();
                    return signIn(email, "the same wrong password").statusCode();
                }));
            }
            start.countDown();
            Map<Integer, Integer> counts = new HashMap<>();
            for (Future<Integer> status : statuses) {
                counts.merge(status.get(60, TimeUnit.SECONDS), 1, Integer::sum);
            }
            return counts;
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void anExpiredSessionIsRefused() throws Exception {
        String email = email();
        createAccount(email, List.of("admin"), null);
        String token = session(email);
        bearer(token).get("/ops/v1/accounts").then().statusCode(200);
        execute("UPDATE sessions SET expires_at = now() - interval '1 second' WHERE token_hash = ?", Keys.hash(token));
        assertEquals(INVALID_TOKEN, bearer(token).get("/ops/v1/accounts").then().statusCode(401).extract().asString());
        assertEquals(INVALID_TOKEN, bearer(token).get("/ops/v1/review/queue").then().statusCode(401).extract().asString());
    }

    @Test
    void signOutEndsTheSessionOnTheNextCall() throws Exception {
        String email = email();
        createAccount(email, List.of("support"), null);
        String token = session(email);
        String other = session(email);
        bearer(token).delete("/ops/v1/sessions/current").then().statusCode(204).body(equalTo(""));
        assertEquals(INVALID_TOKEN, bearer(token).get("/ops/v1/review/queue").then().statusCode(401).extract().asString());
        assertEquals(INVALID_TOKEN, bearer(token).delete("/ops/v1/sessions/current").then().statusCode(401).extract().asString());
        assertNotNull(row("SELECT ended_at FROM sessions WHERE token_hash = ?", Keys.hash(token)).get("ended_at"));
        // Only that session: the account's other one still works.
        bearer(other).get("/ops/v1/review/queue").then().statusCode(200);
        // The operator key has no session to end.
        operator().delete("/ops/v1/sessions/current").then().statusCode(403).body("error", equalTo("Forbidden"));
    }

    /**
     * Who is signed in (issue #41, interfaces A): the account exactly as {@code GET /ops/v1/accounts}
     * lists it and the session's expiry; not audited. No person, no answer: the operator key and a
     * pharmacy key {@code 403}, a signed-out session, a deleted account's and none at all {@code 401}.
     */
    @Test
    void theCurrentSessionIsItsAccountAndItsExpiry() throws Exception {
        String email = email();
        String prescriberId = UUID.randomUUID().toString();
        String id = createAccount(email, List.of("support", "prescriber"), prescriberId);
        JsonPath signedIn = signIn(email, PASSWORD).then().statusCode(201).extract().jsonPath();
        String token = signedIn.getString("token");
        String createdAt = operator().get("/ops/v1/accounts").then().statusCode(200).extract()
                .path("accounts.find { it.id == '" + id + "' }.createdAt");
        long audited = count("SELECT count(*) FROM audit_entries WHERE actor_id = ?", id);

        bearer(token).get("/ops/v1/sessions/current").then().statusCode(200)
                .body(equalTo("{\"account\":{\"id\":\"" + id + "\",\"email\":\"" + email + "\",\"name\":\"Dr Ada Example\","
                        + "\"roles\":[\"prescriber\",\"support\"],\"prescriberId\":\"" + prescriberId + "\",\"createdAt\":\""
                        + createdAt + "\"},\"expiresAt\":\"" + signedIn.getString("expiresAt") + "\"}"));
        // An admin without a prescriber: null, as the account list says.
        String adminEmail = email();
        String adminId = createAccount(adminEmail, List.of("admin"), null);
        bearer(session(adminEmail)).get("/ops/v1/sessions/current").then().statusCode(200)
                .body("account.id", equalTo(adminId))
                .body("account.roles", equalTo(List.of("admin")))
                .body("account", hasKey("prescriberId"))
                .body("account.prescriberId", nullValue());
        assertEquals(audited, count("SELECT count(*) FROM audit_entries WHERE actor_id = ?", id), "a read of oneself is not audited");

        String forbidden = "{\"error\":\"Forbidden\"}";
        assertEquals(forbidden, operator().get("/ops/v1/sessions/current").then().statusCode(403).extract().asString());
        String key = operator().post("/ops/v1/pharmacies/pharm-current/credentials").then().statusCode(201).extract().path("key");
        assertEquals(forbidden, bearer(key).get("/ops/v1/sessions/current").then().statusCode(403).extract().asString());
        assertEquals("{\"error\":\"Ops Key missing\"}",
                given().get("/ops/v1/sessions/current").then().statusCode(401).extract().asString());

        bearer(token).delete("/ops/v1/sessions/current").then().statusCode(204);
        assertEquals(INVALID_TOKEN, bearer(token).get("/ops/v1/sessions/current").then().statusCode(401).extract().asString());
        String again = session(email);
        bearer(again).get("/ops/v1/sessions/current").then().statusCode(200).body("account.id", equalTo(id));
        operator().delete("/ops/v1/accounts/" + id).then().statusCode(204);
        assertEquals(INVALID_TOKEN, bearer(again).get("/ops/v1/sessions/current").then().statusCode(401).extract().asString());
    }

    @Test
    void deletingAnAccountEndsItsSessionsOnTheNextCall() {
        String email = email();
        String id = createAccount(email, List.of("admin"), null);
        String token = session(email);
        bearer(token).get("/ops/v1/review/queue").then().statusCode(200);
        operator().delete("/ops/v1/accounts/" + id).then().statusCode(204);
        assertEquals(INVALID_TOKEN, bearer(token).get("/ops/v1/review/queue").then().statusCode(401).extract().asString());
        assertEquals(INVALID_TOKEN, bearer(token).get("/ops/v1/accounts").then().statusCode(401).extract().asString());
        signIn(email, PASSWORD).then().statusCode(401).body("error", equalTo("Invalid email or password"));
    }

    @Test
    void aPharmacyKeyIsShownOnceOpensOpsAsItsPharmacyAndIsRefusedOnceRevoked() throws Exception {
        String pharmacy = "pharm-" + UUID.randomUUID();
        JsonPath created = operator().post("/ops/v1/pharmacies/" + pharmacy + "/credentials").then().statusCode(201)
                .body("credentialId", matchesPattern(UUID_V4))
                .body("key", matchesPattern("phk_[0-9a-f]{32}"))
                .extract().jsonPath();
        assertEquals(Set.of("credentialId", "key"), created.getMap("").keySet());
        String key = created.getString("key");
        String credentialId = created.getString("credentialId");
        Map<String, Object> stored = row("SELECT * FROM pharmacy_credentials WHERE id = ?", UUID.fromString(credentialId));
        assertEquals(Keys.hash(key), stored.get("key_hash"));
        assertEquals(pharmacy, stored.get("pharmacy_id"));
        assertNoValueHolds(stored, key);

        bearer(key).body("{\"pharmacyOrderId\":\"ord_1\",\"status\":\"shipped\"}").post("/ops/v1/pharmacy/updates")
                .then().statusCode(200)
                .body("headers.x-principal", equalTo("pharmacy:" + pharmacy))
                .body("headers.authorization", nullValue());

        operator().delete("/ops/v1/pharmacies/another-pharmacy/credentials/" + credentialId)
                .then().statusCode(404).body("error", equalTo("Credential not found"));
        operator().delete("/ops/v1/pharmacies/" + pharmacy + "/credentials/not-a-uuid")
                .then().statusCode(404).body("error", equalTo("Credential not found"));
        operator().delete("/ops/v1/pharmacies/" + pharmacy + "/credentials/" + credentialId).then().statusCode(204).body(equalTo(""));
        assertEquals(INVALID_TOKEN, bearer(key).body("{}").post("/ops/v1/pharmacy/updates").then().statusCode(401).extract().asString());
        operator().delete("/ops/v1/pharmacies/" + pharmacy + "/credentials/" + credentialId)
                .then().statusCode(404).body("error", equalTo("Credential not found"));
        operator().post("/ops/v1/pharmacies/" + "p".repeat(129) + "/credentials")
                .then().statusCode(404).body("error", equalTo("Pharmacy not found"));
    }

    @Test
    void everyOtherBearerIsAnInvalidTokenAndTheOperatorKeyKeepsItsRules() {
        for (String authorization : List.of("Bearer nonsense", "Bearer ops_" + "0".repeat(32), "Bearer phk_" + "0".repeat(32),
                "Bearer eyJhbGciOiJSUzI1NiJ9.e30.c2ln", "Basic dXNlcjpwYXNz", "Bearer")) {
            Response refused = given().header("Authorization", authorization).get("/ops/v1/review/queue");
            refused.then().statusCode(401);
            assertEquals(INVALID_TOKEN, refused.asString(), authorization);
        }
        given().get("/ops/v1/accounts").then().statusCode(401).body("error", equalTo("Ops Key missing"));
        given().header("Authorization", " ").get("/ops/v1/accounts").then().statusCode(401).body("error", equalTo("Ops Key missing"));
        // x-ops-key is judged first, as before: a wrong one is refused whatever bearer comes with it.
        String email = email();
        createAccount(email, List.of("admin"), null);
        given().header("x-ops-key", "wrong").header("Authorization", "Bearer " + session(email)).get("/ops/v1/accounts")
                .then().statusCode(401).body("error", equalTo("Invalid Ops Key"));
    }

    /**
     * The gateway's own /ops endpoints keep platform-commons' one table (access.OpsAccess) as every
     * service does, with the principal the edge authenticated: accounts, pharmacy credentials and
     * partners are an admin's; a support person, a prescriber and a pharmacy key are refused 403, and
     * a client's X-Principal claiming admin changes nothing.
     */
    @Test
    void theGatewaysOwnEndpointsAreAnAdminsAsTheTableSays() {
        String support = session(createdAccount(List.of("support"), null));
        String prescriber = session(createdAccount(List.of("prescriber"), UUID.randomUUID().toString()));
        String admin = session(createdAccount(List.of("admin"), null));
        String pharmacyKey = operator().post("/ops/v1/pharmacies/pharm-" + UUID.randomUUID() + "/credentials")
                .then().statusCode(201).extract().path("key");

        for (String token : List.of(support, prescriber, pharmacyKey)) {
            bearer(token).body(account(email(), List.of("admin"), null)).post("/ops/v1/accounts")
                    .then().statusCode(403).body(equalTo("{\"error\":\"Forbidden\"}"));
            bearer(token).get("/ops/v1/accounts").then().statusCode(403).body(equalTo("{\"error\":\"Forbidden\"}"));
            bearer(token).post("/ops/v1/pharmacies/pharm-1/credentials").then().statusCode(403)
                    .body(equalTo("{\"error\":\"Forbidden\"}"));
            bearer(token).body(Map.of("name", "Not Theirs")).post("/ops/v1/partners").then().statusCode(403)
                    .body(equalTo("{\"error\":\"Forbidden\"}"));
        }
        bearer(support).header("X-Principal", "person:" + UUID.randomUUID() + ":admin:").get("/ops/v1/accounts")
                .then().statusCode(403).body(equalTo("{\"error\":\"Forbidden\"}"));

        bearer(admin).body(account(email(), List.of("support"), null)).post("/ops/v1/accounts").then().statusCode(201);
        bearer(admin).get("/ops/v1/accounts").then().statusCode(200);
        bearer(admin).body(Map.of("name", "An Admin's Partner")).post("/ops/v1/partners").then().statusCode(201);
    }

    private static String createdAccount(List<String> roles, String prescriberId) {
        String email = email();
        createAccount(email, roles, prescriberId);
        return email;
    }

    /** The edge names the caller: the operator key is {@code operator_key:service}; a client's own X-Principal goes nowhere. */
    @Test
    void aClientsOwnPrincipalIsNeverForwarded() {
        operator().header("X-Principal", "person:" + UUID.randomUUID() + ":admin,prescriber:")
                .get("/ops/v1/review/queue").then().statusCode(200)
                .body("headers.x-principal", equalTo("operator_key:service"));
        String apiKey = operator().body(Map.of("name", "Principal Check")).post("/ops/v1/partners")
                .then().statusCode(201).extract().path("apiKey");
        given().header("x-api-key", apiKey).header("X-Principal", "operator_key:service").get("/v1/members")
                .then().statusCode(200).body("headers.x-principal", nullValue());
        given().header("X-Principal", "operator_key:service").get("/attachments/t0ken/file.pdf")
                .then().statusCode(200).header("X-Upstream-Received", not(containsString("x-principal")));
        given().header("X-Principal", "operator_key:service").get("/book/some-token")
                .then().statusCode(200).body("headers.x-principal", nullValue());
        given().header("X-Principal", "operator_key:service").get("/ops/v1/accounts")
                .then().statusCode(401).body("error", equalTo("Ops Key missing"));
    }

    /** Platform-commons' retention job deletes sign-in failures after a day and sessions a week past their expiry, nothing newer. */
    @Test
    void oldSignInFailuresAndLongExpiredSessionsArePruned() throws Exception {
        String id = createAccount(email(), List.of("support"), null);
        String oldHash = Keys.hash("old-" + UUID.randomUUID());
        String newHash = Keys.hash("new-" + UUID.randomUUID());
        UUID oldFailure = UUID.randomUUID();
        UUID newFailure = UUID.randomUUID();
        execute("INSERT INTO sign_in_failures (id, email_hash, at) VALUES (?, ?, now() - interval '25 hours')", oldFailure, oldHash);
        execute("INSERT INTO sign_in_failures (id, email_hash, at) VALUES (?, ?, now() - interval '23 hours')", newFailure, newHash);
        execute("INSERT INTO sessions (token_hash, account_id, created_at, expires_at) VALUES (?, ?, now() - interval '9 days',"
                + " now() - interval '8 days')", oldHash, UUID.fromString(id));
        execute("INSERT INTO sessions (token_hash, account_id, created_at, expires_at) VALUES (?, ?, now() - interval '7 days',"
                + " now() - interval '6 days')", newHash, UUID.fromString(id));
        retention.prune();
        assertEquals(0L, count("SELECT count(*) FROM sign_in_failures WHERE id = ?", oldFailure));
        assertEquals(1L, count("SELECT count(*) FROM sign_in_failures WHERE id = ?", newFailure));
        assertEquals(0L, count("SELECT count(*) FROM sessions WHERE token_hash = ?", oldHash));
        assertEquals(1L, count("SELECT count(*) FROM sessions WHERE token_hash = ?", newHash));
    }

    private long count(String sql, Object parameter) throws Exception {
        return ((Number) row(sql, parameter).values().iterator().next()).longValue();
    }

    /** The gateway's own endpoints read the principal from the X-Principal header the edge sets, or from the routing context. */
    @Test
    void theGatewaysOwnEndpointsLearnThePrincipalFromTheEdge() {
        String email = email();
        String id = createAccount(email, List.of("support", "admin"), null);
        bearer(session(email)).header("X-Principal", "operator_key:service").get(PrincipalEcho.PATH).then().statusCode(200)
                .body("header", equalTo("person:" + id + ":admin,support:"))
                .body("context", equalTo("person:" + id + ":admin,support:"));
        operator().header("X-Principal", "person:" + id + ":admin:").get(PrincipalEcho.PATH).then().statusCode(200)
                .body("header", equalTo("operator_key:service"))
                .body("context", equalTo("operator_key:service"));
        String key = operator().post("/ops/v1/pharmacies/pharm-echo/credentials").then().statusCode(201).extract().path("key");
        bearer(key).get(PrincipalEcho.PATH).then().statusCode(200)
                .body("header", equalTo("pharmacy:pharm-echo"))
                .body("context", equalTo("pharmacy:pharm-echo"));
    }

    @Test
    void withLocalAccountsOffTheirRoutesAreNotFoundAndSessionTokensInvalid() {
        String email = email();
        createAccount(email, List.of("admin"), null);
        String token = session(email);
        QuarkusMock.installMockForType(new LocalAccounts(false), LocalAccounts.class);
        String notFound = "{\"error\":\"Not Found\"}";
        assertEquals(notFound, signIn(email, PASSWORD).then().statusCode(404).extract().asString());
        assertEquals(notFound, operator().get("/ops/v1/accounts").then().statusCode(404).extract().asString());
        assertEquals(notFound, operator().body(account(email(), List.of("admin"), null)).post("/ops/v1/accounts")
                .then().statusCode(404).extract().asString());
        assertEquals(notFound, bearer(token).delete("/ops/v1/sessions/current").then().statusCode(404).extract().asString());
        // Who is signed in stays (an OpenID Connect person asks it: OidcTokensTest); a session token is no person now.
        assertEquals(INVALID_TOKEN, bearer(token).get("/ops/v1/sessions/current").then().statusCode(401).extract().asString());
        operator().get("/ops/v1/sessions/current").then().statusCode(403).body(equalTo("{\"error\":\"Forbidden\"}"));
        assertEquals(INVALID_TOKEN, bearer(token).get("/ops/v1/review/queue").then().statusCode(401).extract().asString());
        // The operator key and pharmacy keys are untouched.
        String key = operator().post("/ops/v1/pharmacies/pharm-off/credentials").then().statusCode(201).extract().path("key");
        bearer(key).body("{}").post("/ops/v1/pharmacy/updates").then().statusCode(200)
                .body("headers.x-principal", equalTo("pharmacy:pharm-off"));
    }
}
