package com.telemed.gateway.identity;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.telemed.common.json.Timestamps;
import com.telemed.gateway.edge.GatewayEdgeTest;
import com.telemed.gateway.edge.UpstreamServer;
import com.telemed.testkit.quarkus.InfrastructureResource;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusMock;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * OpenID Connect bearer tokens on /ops (issue #40; people-and-pages.md, "Credentials on /ops";
 * interfaces of issue #40, item 3): tokens of a real provider (nav's mock-oauth2-server, started by
 * {@link UpstreamServer} in the gateway's usual test configuration, whose issuer and audience it
 * sets) become {@code person:<accountId>:<roles>:<prescriberId>}, the account matched or provisioned;
 * every other token is {@code 401 Invalid token}.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = UpstreamServer.class, scope = TestResourceScope.GLOBAL)
class OidcTokensTest {

    private static final String INVALID_TOKEN = "{\"error\":\"Invalid token\"}";

    @ConfigProperty(name = "test.upstream-url")
    String upstream;

    @ConfigProperty(name = "platform.identity.oidc.issuer")
    String issuerUrl;

    @Inject
    AgroalDataSource dataSource;

    private static String email() {
        return "oidc-" + UUID.randomUUID() + "@example.com";
    }

    private static Map<String, Object> claims(String email, List<String> roles) {
        Map<String, Object> claims = new LinkedHashMap<>();
        claims.put("email", email);
        claims.put("email_verified", true);
        claims.put("name", "Ada Example");
        if (roles != null) {
            claims.put("roles", roles);
        }
        return claims;
    }

    /** A token the provider signs: of {@code issuer}, for {@code audience}, expiring in {@code expiresIn} seconds. */
    private String token(String issuer, String audience, long expiresIn, Map<String, Object> claims) {
        return given().contentType("application/json")
                .body(Map.of("issuer", issuer, "audience", audience, "expiresIn", expiresIn, "claims", claims))
                .post(upstream + "/__token").then().statusCode(200).extract().asString();
    }

    private String token(Map<String, Object> claims) {
        return token(UpstreamServer.OIDC_ISSUER, UpstreamServer.OIDC_AUDIENCE, 300, claims);
    }

    private static RequestSpecification bearer(String token) {
        return given().header("Authorization", "Bearer " + token);
    }

    private List<String> accountIds(String email) throws Exception {
        try (var connection = dataSource.getConnection();
             var query = connection.prepareStatement("SELECT id FROM accounts WHERE lower(email) = lower(?) ORDER BY created_at")) {
            query.setString(1, email);
            try (var rows = query.executeQuery()) {
                List<String> ids = new ArrayList<>();
                while (rows.next()) {
                    ids.add(rows.getString(1));
                }
                return ids;
            }
        }
    }

    /** The gateway's own audit entries about {@code targetId}: actor type and id, action, target type and id, partner. */
    private List<String> auditEntries(String targetId) throws Exception {
        try (var connection = dataSource.getConnection();
             var query = connection.prepareStatement("SELECT actor_type, actor_id, action, target_type, target_id, partner_id"
                     + " FROM audit_entries WHERE target_id = ? ORDER BY at")) {
            query.setString(1, targetId);
            try (var rows = query.executeQuery()) {
                List<String> entries = new ArrayList<>();
                while (rows.next()) {
                    entries.add(rows.getString(1) + " " + rows.getString(2) + " " + rows.getString(3) + " " + rows.getString(4)
                            + " " + rows.getString(5) + " " + rows.getString(6));
                }
                return entries;
            }
        }
    }

    private String passwordHash(String accountId) throws Exception {
        try (var connection = dataSource.getConnection();
             var query = connection.prepareStatement("SELECT password_hash FROM accounts WHERE id = ?::uuid")) {
            query.setString(1, accountId);
            try (var rows = query.executeQuery()) {
                rows.next();
                return rows.getString(1);
            }
        }
    }

    @Test
    void anAdminsTokenListsAccountsAndProvisionsItsAccountOnce() throws Exception {
        String email = email();
        String token = token(claims(email, List.of("admin", "auditor")));

        bearer(token).get("/ops/v1/accounts").then().statusCode(200);
        bearer(token).get("/ops/v1/accounts").then().statusCode(200);

        List<String> ids = accountIds(email);
        assertEquals(1, ids.size(), "one account provisioned");
        String id = ids.get(0);
        bearer(token).get("/ops/v1/accounts").then().statusCode(200)
                .body("accounts.find { it.id == '" + id + "' }.email", equalTo(email))
                .body("accounts.find { it.id == '" + id + "' }.name", equalTo("Ada Example"))
                .body("accounts.find { it.id == '" + id + "' }.roles", equalTo(List.of("admin")))
                .body("accounts.find { it.id == '" + id + "' }.prescriberId", nullValue());
        assertNull(passwordHash(id), "a provisioned account has no password");
        // Provisioned once, audited once (by the same statement): the person as the actor of their own account's creation.
        assertEquals(List.of("person " + id + " account.provision account " + id + " null"), auditEntries(id));
        given().contentType("application/json").body(Map.of("email", email, "password", "any password at all"))
                .post("/ops/v1/sessions").then().statusCode(401).body(equalTo("{\"error\":\"Invalid email or password\"}"));
        // The gateway's own endpoints see the same principal: the token's roles that name a role.
        bearer(token).get(PrincipalEcho.PATH).then().statusCode(200)
                .body("header", equalTo("person:" + id + ":admin:"))
                .body("context", equalTo("person:" + id + ":admin:"));
    }

    @Test
    void aPrescribersTokenIsForwardedAsExactlyThatPrescriber() throws Exception {
        String email = email();
        String prescriberId = UUID.randomUUID().toString();
        Map<String, Object> claims = claims(email, List.of("prescriber"));
        claims.put("prescriber_id", prescriberId);
        String token = token(claims);

        var received = bearer(token).get("/ops/v1/review/queue").then().statusCode(200).extract().jsonPath();

        String id = accountIds(email).get(0);
        assertEquals("person:" + id + ":prescriber:" + prescriberId, received.getString("headers.x-principal"));
        assertNull(received.get("headers.authorization"), "the token stays at the edge");
        // Matched by the prescriber_id claim next time, whatever the email says.
        Map<String, Object> other = claims(email(), List.of("prescriber", "support"));
        other.put("prescriber_id", prescriberId);
        bearer(token(other)).get("/ops/v1/review/queue").then().statusCode(200)
                .body("headers.x-principal", equalTo("person:" + id + ":prescriber,support:" + prescriberId));
    }

    /** An account an admin made (a local one) is the person's when the provider verified its email. */
    @Test
    void anExistingAccountIsMatchedByItsVerifiedEmail() throws Exception {
        String email = email();
        String id = given().header("x-ops-key", GatewayEdgeTest.OPS_KEY).contentType("application/json")
                .body(Map.of("email", email, "name", "Ada Local", "roles", List.of("support"), "password", "a long enough password"))
                .post("/ops/v1/accounts").then().statusCode(201).extract().path("account.id");

        // The token's roles, not the account's, and any letter case of the email.
        bearer(token(claims(email.toUpperCase(), List.of("admin")))).get(PrincipalEcho.PATH).then().statusCode(200)
                .body("header", equalTo("person:" + id + ":admin:"));
        // A token naming a prescriber the account is not: two records of one person that disagree.
        Map<String, Object> prescriber = claims(email, List.of("prescriber"));
        prescriber.put("prescriber_id", UUID.randomUUID().toString());
        bearer(token(prescriber)).get(PrincipalEcho.PATH).then().statusCode(401).body(equalTo(INVALID_TOKEN));
        assertEquals(List.of(id), accountIds(email));
    }

    /**
     * Who is signed in (issue #41, interfaces A) for a token: its account as {@code GET /ops/v1/accounts}
     * lists it, with the roles the token gives, and the token's {@code exp}; with local accounts off too.
     */
    @Test
    void theCurrentSessionOfATokenIsItsAccountUntilItsExp() throws Exception {
        String email = email();
        String prescriberId = UUID.randomUUID().toString();
        Map<String, Object> claims = claims(email, List.of("prescriber", "auditor"));
        claims.put("prescriber_id", prescriberId);
        String token = token(claims);
        long exp = new ObjectMapper().readTree(Base64.getUrlDecoder().decode(token.split("\\.")[1])).path("exp").asLong();
        bearer(token).get("/ops/v1/review/queue").then().statusCode(200);
        String id = accountIds(email).get(0);
        String createdAt = given().header("x-ops-key", GatewayEdgeTest.OPS_KEY).get("/ops/v1/accounts").then().statusCode(200)
                .extract().path("accounts.find { it.id == '" + id + "' }.createdAt");

        String expected = "{\"account\":{\"id\":\"" + id + "\",\"email\":\"" + email + "\",\"name\":\"Ada Example\","
                + "\"roles\":[\"prescriber\"],\"prescriberId\":\"" + prescriberId + "\",\"createdAt\":\"" + createdAt + "\"},"
                + "\"expiresAt\":\"" + Timestamps.format(Instant.ofEpochSecond(exp)) + "\"}";
        bearer(token).get("/ops/v1/sessions/current").then().statusCode(200).body(equalTo(expected));
        // The roles are the token's, as every call of this token is judged (OpsAccess), not the account's.
        Map<String, Object> support = claims(email, List.of("support"));
        support.put("prescriber_id", prescriberId);
        bearer(token(support)).get("/ops/v1/sessions/current").then().statusCode(200)
                .body("account.id", equalTo(id))
                .body("account.roles", equalTo(List.of("support")));
        // Local accounts off (production with OpenID Connect only): still answered.
        QuarkusMock.installMockForType(new LocalAccounts(false), LocalAccounts.class);
        bearer(token).get("/ops/v1/sessions/current").then().statusCode(200).body(equalTo(expected));
    }

    @Test
    void aTokenOfAnotherIssuerOfTheSameProviderIsRefused() {
        String token = token("another-issuer", UpstreamServer.OIDC_AUDIENCE, 300, claims(email(), List.of("admin")));

        bearer(token).get("/ops/v1/accounts").then().statusCode(401).body(equalTo(INVALID_TOKEN));
    }

    @Test
    void anExpiredTokenIsRefused() {
        String token = token(UpstreamServer.OIDC_ISSUER, UpstreamServer.OIDC_AUDIENCE, -600, claims(email(), List.of("admin")));

        bearer(token).get("/ops/v1/accounts").then().statusCode(401).body(equalTo(INVALID_TOKEN));
    }

    @Test
    void aTokenForAnotherAudienceIsRefused() {
        String token = token(UpstreamServer.OIDC_ISSUER, "another-api", 300, claims(email(), List.of("admin")));

        bearer(token).get("/ops/v1/accounts").then().statusCode(401).body(equalTo(INVALID_TOKEN));
    }

    @Test
    void aTokenWithoutTheRolesClaimIsAPersonWithoutRoles() throws Exception {
        String email = email();
        String token = token(claims(email, null));

        bearer(token).get("/ops/v1/accounts").then().statusCode(403).body(equalTo("{\"error\":\"Forbidden\"}"));
        String id = accountIds(email).get(0);
        bearer(token).get(PrincipalEcho.PATH).then().statusCode(200).body("header", equalTo("person:" + id + "::"));
        assertEquals(1, accountIds(email).size());
    }

    @Test
    void anUnsignedTokenIsRefused() {
        Base64.Encoder base64 = Base64.getUrlEncoder().withoutPadding();
        long now = System.currentTimeMillis() / 1000;
        String header = base64.encodeToString("{\"alg\":\"none\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8));
        String payload = base64.encodeToString(("{\"iss\":\"" + issuerUrl + "\",\"aud\":\"" + UpstreamServer.OIDC_AUDIENCE
                + "\",\"sub\":\"someone\",\"iat\":" + now + ",\"exp\":" + (now + 300) + ",\"email\":\"" + email()
                + "\",\"email_verified\":true,\"roles\":[\"admin\"]}").getBytes(StandardCharsets.UTF_8));

        bearer(header + "." + payload + ".").get("/ops/v1/accounts").then().statusCode(401).body(equalTo(INVALID_TOKEN));
        // A signed token with its signature removed is no better.
        String signed = token(claims(email(), List.of("admin")));
        bearer(signed.substring(0, signed.lastIndexOf('.') + 1)).get("/ops/v1/accounts").then().statusCode(401)
                .body(equalTo(INVALID_TOKEN));
    }

    @Test
    void aDeletedAccountsTokenIsRefused() throws Exception {
        String email = email();
        String token = token(claims(email, List.of("admin")));
        bearer(token).get("/ops/v1/accounts").then().statusCode(200);
        String id = accountIds(email).get(0);

        given().header("x-ops-key", GatewayEdgeTest.OPS_KEY).delete("/ops/v1/accounts/" + id).then().statusCode(204);

        bearer(token).get("/ops/v1/accounts").then().statusCode(401).body(equalTo(INVALID_TOKEN));
        bearer(token(claims(email, List.of("admin")))).get("/ops/v1/accounts").then().statusCode(401)
                .body(equalTo(INVALID_TOKEN));
        assertEquals(List.of(id), accountIds(email), "no new account for a deleted one");
    }

    @Test
    void theSameEmailTwiceProvisionsOneAccount() throws Exception {
        String email = email();
        List<String> tokens = List.of(token(claims(email, List.of("support"))),
                token(claims(email.toUpperCase(), List.of("support"))), token(claims(email, List.of("support"))),
                token(claims(email, List.of("support"))));
        ExecutorService callers = Executors.newFixedThreadPool(tokens.size());
        try {
            List<Future<Integer>> statuses = new ArrayList<>();
            for (String token : tokens) {
                statuses.add(callers.submit(() -> bearer(token).get("/ops/v1/review/queue").statusCode()));
            }
            for (Future<Integer> status : statuses) {
                assertEquals(200, status.get());
            }
        } finally {
            callers.shutdownNow();
        }
        assertEquals(1, accountIds(email).size(), "one account for one email");
    }

    @Test
    void anUnverifiedEmailNamesNoAccount() throws Exception {
        String email = email();
        Map<String, Object> claims = claims(email, List.of("admin"));
        claims.put("email_verified", false);

        bearer(token(claims)).get("/ops/v1/accounts").then().statusCode(401).body(equalTo(INVALID_TOKEN));
        assertEquals(List.of(), accountIds(email));
    }
}
