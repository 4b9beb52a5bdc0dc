package com.telemed.e2e;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.common.access.OpsAccess;
import com.telemed.common.access.Principal;
import com.telemed.testkit.browser.Axe;
import com.telemed.testkit.browser.Browser;
import com.telemed.testkit.browser.BrowserFailureScreens;
import com.telemed.testkit.browser.Forms;
import com.telemed.testkit.e2e.RunningPlatform;
import com.telemed.testkit.infra.PostgresServer;
import com.telemed.testkit.platform.PlatformService;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import no.nav.security.mock.oauth2.token.DefaultOAuth2TokenCallback;
import okhttp3.mockwebserver.RecordedRequest;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * People on {@code /ops} through the gateway with the real services (issue #40; people-and-pages.md,
 * "Principals and roles", "Credentials on /ops", "A prescriber acts in person", "Audit"):
 * <ul>
 *   <li>every row of the role table ({@link OpsAccess}), each principal kind calling it: refused
 *       exactly {@code 403 Forbidden} where the row says so, let through to the service (whatever it
 *       answers, never a refusal of access) where it allows;</li>
 *   <li>each credential kind valid, wrong, expired and revoked: sessions, pharmacy keys, OpenID Connect
 *       tokens from a real provider (mock-oauth2-server, in this JVM) and the operator key;</li>
 *   <li>production's rule: with requests-service in {@code SERVICE_ENVIRONMENT=production}, the operator
 *       key's approve answers {@code 403 A prescriber must act in person}, and a prescriber's OpenID
 *       Connect token approves, with their prescriber id in the history and the audit naming them.</li>
 * </ul>
 * The gateway is restarted once with the provider's issuer, requests-service once in production (for
 * the last test), and neither is put back: the class runs last before the log scan ({@code @Order}),
 * which sends no OpenID Connect token and acts as a prescriber in person, as production requires.
 */
@ExtendWith({RunningPlatform.class, BrowserFailureScreens.class})
@Order(Integer.MAX_VALUE - 1)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PeopleOnOpsIT {

    private static final String ISSUER = "telemed";
    private static final String AUDIENCE = "telemed-ops";
    private static final String ANY_ID = "00000000-0000-4000-8000-00000000abcd";
    private static final Map<String, Object> PRESCRIPTION = Map.of("quantity", 30, "quantityUnits", "tablets",
            "daysSupply", 30, "directions", "One tablet daily", "refills", 1, "dispenseAsWritten", false);

    private static MockOAuth2Server provider;
    private static RunningPlatform.Handle platform;
    private static String prescriberId;
    private static String adminToken;
    private static String pharmacyKey;
    /** A bearer credential per principal kind, each a valid one, and the principal it names. */
    private static final Map<String, Caller> CALLERS = new LinkedHashMap<>();

    /** One kind of caller: the header that carries its credential and the principal the gateway makes of it. */
    private record Caller(String header, String value, Principal principal) {
    }

    @BeforeAll
    static void providerAndAccounts(RunningPlatform.Handle handle) {
        platform = handle;
        provider = new MockOAuth2Server();
        provider.start();
        platform.platform().restart(PlatformService.GATEWAY, Map.of(
                "PLATFORM_IDENTITY_OIDC_ISSUER", provider.issuerUrl(ISSUER).toString(),
                "PLATFORM_IDENTITY_OIDC_AUDIENCE", AUDIENCE,
                "PLATFORM_IDENTITY_OIDC_ROLES_CLAIM", "roles"));

        prescriberId = ops().body(Map.of("name", "Dr Okafor", "email", "okafor." + UUID.randomUUID() + "@clinic.example"))
                .post("/ops/v1/prescribers").then().statusCode(201).extract().path("prescriber.id");
        String admin = account("admin", null);
        String prescriber = account("prescriber", prescriberId);
        String support = account("support", null);
        adminToken = signIn(admin);
        CALLERS.put("operator key", new Caller("x-ops-key", platform.opsKey(), Principal.operatorKey()));
        CALLERS.put("admin session", new Caller("Authorization", "Bearer " + adminToken, person(Principal.Role.ADMIN, null)));
        CALLERS.put("prescriber session", new Caller("Authorization", "Bearer " + signIn(prescriber),
                person(Principal.Role.PRESCRIBER, prescriberId)));
        CALLERS.put("support session", new Caller("Authorization", "Bearer " + signIn(support), person(Principal.Role.SUPPORT, null)));
        pharmacyKey = ops().post("/ops/v1/pharmacies/sandbox-pharmacy/credentials").then().statusCode(201).extract().path("key");
        CALLERS.put("pharmacy key", new Caller("Authorization", "Bearer " + pharmacyKey, Principal.parse("pharmacy:sandbox-pharmacy").orElseThrow()));
        CALLERS.put("admin OpenID Connect token", new Caller("Authorization", "Bearer " + token("admin-" + UUID.randomUUID(),
                Map.of("roles", List.of("admin"), "email", "admin." + UUID.randomUUID() + "@clinic.example", "email_verified", true), 300),
                person(Principal.Role.ADMIN, null)));
    }

    @AfterAll
    static void stopProvider() {
        if (provider != null) {
            provider.shutdown();
        }
    }

    /** Every row of the role table, called by every kind of caller: the table's verdict, nothing else. */
    @TestFactory
    @Order(1)
    Stream<DynamicTest> everyRowOfTheRoleTableForEveryKindOfCaller() {
        List<DynamicTest> tests = new ArrayList<>();
        for (String operation : OpsAccess.operations()) {
            String method = operation.substring(0, operation.indexOf(' '));
            String template = operation.substring(operation.indexOf(' ') + 1);
            if (operation.equals("DELETE /ops/v1/sessions/current")) {
                continue; // ends the caller's session: credentialKindsValidWrongExpiredRevoked signs out
            }
            tests.add(DynamicTest.dynamicTest(operation, () -> {
                for (Map.Entry<String, Caller> caller : CALLERS.entrySet()) {
                    if (operation.equals("GET /ops/v1/sessions/current") && caller.getKey().equals("operator key")) {
                        continue; // no person signed in: the resource's own 403 (spotChecksTheTableCannotHide)
                    }
                    OpsAccess.Verdict verdict = OpsAccess.decide(method, template, Optional.of(caller.getValue().principal()), false);
                    Response answer = call(caller.getValue(), method, concrete(template));
                    String error = answer.getStatusCode() >= 400 ? String.valueOf(answer.jsonPath().getString("error")) : "";
                    String what = operation + " by the " + caller.getKey() + ": " + answer.getStatusCode() + " " + answer.asString();
                    if (verdict == OpsAccess.Verdict.ALLOWED) {
                        assertNotEquals(401, answer.getStatusCode(), what);
                        assertFalse(answer.getStatusCode() == 403 && Set.of("Forbidden", "A prescriber must act in person").contains(error), what);
                        assertTrue(answer.getStatusCode() < 500 || answer.getStatusCode() == 503, what);
                    } else {
                        assertEquals(verdict.status(), answer.getStatusCode(), what);
                        assertEquals(verdict.error(), error, what);
                    }
                }
            }));
        }
        return tests.stream();
    }

    @Test
    @Order(2)
    void spotChecksTheTableCannotHide() {
        // Written out, not computed from the table: what people-and-pages.md says in words.
        expect(CALLERS.get("support session"), "GET", "/ops/v1/accounts", 403, "Forbidden");
        expect(CALLERS.get("support session"), "POST", "/ops/v1/requests/" + ANY_ID + "/approve", 403, "Forbidden");
        expect(CALLERS.get("prescriber session"), "PUT", "/ops/v1/drugs/" + ANY_ID, 403, "Forbidden");
        expect(CALLERS.get("pharmacy key"), "GET", "/ops/v1/review/queue", 403, "Forbidden");
        expect(CALLERS.get("admin session"), "POST", "/ops/v1/requests/" + ANY_ID + "/approve", 403, "Forbidden");
        assertEquals(200, call(CALLERS.get("admin session"), "GET", "/ops/v1/accounts").getStatusCode());
        assertEquals(200, call(CALLERS.get("admin OpenID Connect token"), "GET", "/ops/v1/accounts").getStatusCode());
        assertEquals(200, call(CALLERS.get("support session"), "GET", "/ops/v1/review/queue").getStatusCode());
        // Who is signed in: any person (issue #41); the operator key is no person.
        assertEquals(200, call(CALLERS.get("support session"), "GET", "/ops/v1/sessions/current").getStatusCode());
        assertEquals(200, call(CALLERS.get("admin OpenID Connect token"), "GET", "/ops/v1/sessions/current").getStatusCode());
        expect(CALLERS.get("operator key"), "GET", "/ops/v1/sessions/current", 403, "Forbidden");
        // A client's own X-Principal is no credential: dropped at the edge.
        given().baseUri(platform.gateway().toString()).header(Principal.HEADER, "person:" + ANY_ID + ":admin:")
                .get("/ops/v1/accounts").then().statusCode(401).body("error", equalTo("Ops Key missing"));
    }

    @Test
    @Order(3)
    void credentialKindsValidWrongExpiredRevoked() throws Exception {
        // Operator key: valid, wrong (it has no expiry: a deployment rotates it by restarting with another).
        assertEquals(200, ops().get("/ops/v1/drugs").getStatusCode());
        given().baseUri(platform.gateway().toString()).header("x-ops-key", "ops_" + "0".repeat(32))
                .get("/ops/v1/drugs").then().statusCode(401).body("error", equalTo("Invalid Ops Key"));

        // Sessions: wrong, expired, ended (sign-out), revoked (the account deleted).
        bearer("ops_" + "0".repeat(32)).get("/ops/v1/drugs").then().statusCode(401).body("error", equalTo("Invalid token"));
        String expiring = signIn(account("support", null));
        assertEquals(200, bearer(expiring).get("/ops/v1/review/queue").getStatusCode());
        expire(expiring);
        bearer(expiring).get("/ops/v1/review/queue").then().statusCode(401).body("error", equalTo("Invalid token"));
        String signedOut = signIn(account("support", null));
        bearer(signedOut).delete("/ops/v1/sessions/current").then().statusCode(204);
        bearer(signedOut).get("/ops/v1/review/queue").then().statusCode(401).body("error", equalTo("Invalid token"));
        String deletedAccount = account("support", null);
        String ofDeleted = signIn(deletedAccount);
        bearer(adminToken).delete("/ops/v1/accounts/" + deletedAccount.split(" ")[0]).then().statusCode(204);
        bearer(ofDeleted).get("/ops/v1/review/queue").then().statusCode(401).body("error", equalTo("Invalid token"));

        // Pharmacy keys: wrong, revoked (they do not expire: an admin revokes them).
        bearer("phk_" + "0".repeat(32)).contentType(ContentType.JSON).body("{}").post("/ops/v1/pharmacy/updates")
                .then().statusCode(401).body("error", equalTo("Invalid token"));
        JsonPath revoked = ops().post("/ops/v1/pharmacies/sandbox-pharmacy/credentials").then().statusCode(201).extract().jsonPath();
        assertEquals(400, bearer(revoked.getString("key")).contentType(ContentType.JSON).body("{}").post("/ops/v1/pharmacy/updates").getStatusCode());
        ops().delete("/ops/v1/pharmacies/sandbox-pharmacy/credentials/" + revoked.getString("credentialId")).then().statusCode(204);
        bearer(revoked.getString("key")).contentType(ContentType.JSON).body("{}").post("/ops/v1/pharmacy/updates")
                .then().statusCode(401).body("error", equalTo("Invalid token"));

        // OpenID Connect: valid, wrong issuer, expired, no role, wrong audience, revoked (its account deleted).
        String adaEmail = "oidc." + UUID.randomUUID() + "@clinic.example";
        Map<String, Object> admin = Map.of("roles", List.of("admin"), "email", adaEmail, "email_verified", true, "name", "Ada Admin");
        assertEquals(200, bearer(token("ada", admin, 300)).get("/ops/v1/accounts").getStatusCode());
        bearer(provider.issueToken("another-issuer", "ada", AUDIENCE, admin, 300).serialize()).get("/ops/v1/accounts")
                .then().statusCode(401).body("error", equalTo("Invalid token"));
        bearer(token("ada", admin, -120)).get("/ops/v1/accounts").then().statusCode(401).body("error", equalTo("Invalid token"));
        bearer(provider.issueToken(ISSUER, "ada", "another-audience", admin, 300).serialize()).get("/ops/v1/accounts")
                .then().statusCode(401).body("error", equalTo("Invalid token"));
        Map<String, Object> noRole = new LinkedHashMap<>(admin);
        noRole.remove("roles");
        bearer(token("ada", noRole, 300)).get("/ops/v1/accounts").then().statusCode(403).body("error", equalTo("Forbidden"));
        String ada = token("ada", admin, 300);
        String adaAccount = bearer(adminToken).get("/ops/v1/accounts").then().statusCode(200).extract().jsonPath()
                .getString("accounts.find { it.email == '" + adaEmail + "' }.id");
        bearer(adminToken).delete("/ops/v1/accounts/" + adaAccount).then().statusCode(204);
        bearer(ada).get("/ops/v1/accounts").then().statusCode(401).body("error", equalTo("Invalid token"));
    }

    @Test
    @Order(4)
    void inProductionThePrescriberSignsInPersonAndTheAuditNamesThem() throws Exception {
        platform.platform().restart(PlatformService.REQUESTS, Map.of("SERVICE_ENVIRONMENT", "production"));
        JsonPath partner = ops().body(Map.of("name", "People E2E " + UUID.randomUUID())).post("/ops/v1/partners")
                .then().statusCode(201).extract().jsonPath();
        String key = partner.getString("apiKey");
        ops().body(Map.of("mode", "deferred")).put("/ops/v1/partners/" + partner.getString("partner.id") + "/fulfilment").then().statusCode(200);
        String drugId = "fin-people-" + UUID.randomUUID().toString().substring(0, 8);
        ops().body("""
                        {"name": "Finasteride People", "classification": "non-controlled",
                         "skus": [{"label": "1 mg", "active": true}], "pharmacy": {"id": "sandbox", "method": "email"}}""")
                .put("/ops/v1/drugs/" + drugId).then().statusCode(200);
        String requestId = given().baseUri(platform.gateway().toString()).header("x-api-key", key).contentType(ContentType.JSON)
                .body("""
                        {"caseNotes": "Thinning at the crown", "items": [{"drugId": "%s", "dosage": "1 mg"}],
                         "member": {"firstName": "Ann", "lastName": "Lee", "email": "ann.%s@example.com",
                                    "dateOfBirth": "1980-01-02", "state": "CA",
                                    "address": {"street1": "1 A St", "city": "B", "state": "CA", "zipCode": "90001"}}}"""
                        .formatted(drugId, UUID.randomUUID()))
                .post("/v1/requests").then().statusCode(201).extract().path("requestId");
        String itemId = given().baseUri(platform.gateway().toString()).header("x-api-key", key).get("/v1/requests/" + requestId)
                .then().statusCode(200).extract().path("lineItems[0].itemId");
        String approve = "/ops/v1/requests/" + requestId + "/items/" + itemId + "/approve";

        ops().body(Map.of("prescriberId", prescriberId, "prescription", PRESCRIPTION)).post(approve)
                .then().statusCode(403).body("error", equalTo("A prescriber must act in person"));

        String email = "okafor." + UUID.randomUUID() + "@clinic.example";
        String token = token("okafor-" + UUID.randomUUID(), Map.of("roles", List.of("prescriber"), "prescriber_id", prescriberId,
                "email", email, "email_verified", true, "name", "Dr Okafor"), 300);
        bearer(token).contentType(ContentType.JSON).body(Map.of("prescription", PRESCRIPTION)).post(approve)
                .then().statusCode(200).body("request.status", equalTo("approved"));

        given().baseUri(platform.gateway().toString()).header("x-api-key", key).get("/v1/requests/" + requestId)
                .then().statusCode(200)
                .body("lineItems[0].history[1].action", equalTo("approved"))
                .body("lineItems[0].history[1].by", equalTo(prescriberId));
        // The account the token was matched to (its prescriber id), and the audit entry naming it.
        String accountId = bearer(adminToken).get("/ops/v1/accounts").then().statusCode(200).extract().jsonPath()
                .getString("accounts.find { it.prescriberId == '" + prescriberId + "' }.id");
        bearer(adminToken).queryParam("targetId", itemId).get("/ops/v1/audit").then().statusCode(200)
                .body("entries.size()", equalTo(1))
                .body("entries[0].action", equalTo("item.approve"))
                .body("entries[0].actor.type", equalTo("person"))
                .body("entries[0].actor.id", equalTo(accountId))
                .body("entries[0].targetType", equalTo("item"))
                .body("entries[0].partnerId", equalTo(partner.getString("partner.id")));
    }

    /**
     * Issue #41: the console's OpenID Connect sign-in through the gateway, in Chromium. web-service is started with
     * the provider (the gateway's own, started with it above); the provider is told to send the browser back to the
     * gateway's public address (the gateway names it to web-service in X-Forwarded-Host/-Proto), never to
     * web-service's own; the code is exchanged, the person lands on their queue as the token's account, and
     * signing out goes through the provider's end-session back to the console's sign-in, at the gateway again.
     */
    @Test
    @Order(5)
    void theConsoleSignsAPersonInWithTheProviderThroughTheGateway() {
        platform.platform().restart(PlatformService.WEB, Map.of(
                "WEB_CONSOLE_OIDC_ISSUER", provider.issuerUrl(ISSUER).toString(),
                "WEB_CONSOLE_OIDC_CLIENT_ID", "telemed-console",
                "WEB_CONSOLE_OIDC_CLIENT_SECRET", "console-client-secret-" + UUID.randomUUID()));
        String gateway = platform.gateway().toString().replaceAll("/$", "");
        try (Browser browser = Browser.open()) {
            String email = "okafor.console." + UUID.randomUUID() + "@clinic.example";
            provider.enqueueCallback(new DefaultOAuth2TokenCallback(ISSUER, "okafor-console-" + UUID.randomUUID(), "JWT",
                    List.of(AUDIENCE), Map.of("roles", List.of("prescriber"), "prescriber_id", prescriberId, "email", email,
                    "email_verified", true, "name", "Dr Okafor"), 300L));
            WebDriver driver = browser.driver();
            browser.get(gateway + "/console/sign-in");
            Forms.click(driver, By.id("sign-in-oidc"));

            // The provider's redirect, the exchange and the console's own session: the person's queue, at the gateway.
            await("the queue after the provider").atMost(Duration.ofSeconds(30))
                    .until(() -> driver.getCurrentUrl().equals(gateway + "/console/queue"));
            assertNotNull(driver.findElement(By.cssSelector("nav.console-nav a[href='/console/queue']")));
            assertTrue(driver.manage().getCookieNamed("console_session") != null, "the console's session cookie");
            RecordedRequest authorize = authorizeRequest();
            assertEquals(gateway + "/console/sign-in/oidc", authorize.getRequestUrl().queryParameter("redirect_uri"));
            assertEquals("telemed-console", authorize.getRequestUrl().queryParameter("client_id"));
            Axe.check(driver, "console-queue-oidc");

            // The gateway took the token as the prescriber it names: a prescriber's console (appointments), no admin's pages.
            assertEquals(1, driver.findElements(By.cssSelector("nav.console-nav a[href='/console/appointments']")).size());
            assertEquals(0, driver.findElements(By.cssSelector("nav.console-nav a[href='/console/partners']")).size());

            // Signing out: the provider's end-session, then back to the console's sign-in at the gateway, signed out.
            Forms.click(driver, By.cssSelector("form[action='/console/sign-out'] button[type=submit]"));
            await("the sign-in after the provider's end-session").atMost(Duration.ofSeconds(30))
                    .until(() -> driver.getCurrentUrl().equals(gateway + "/console/sign-in"));
            assertNull(driver.manage().getCookieNamed("console_session"));
            browser.get(gateway + "/console/queue");
            assertEquals(gateway + "/console/sign-in", driver.getCurrentUrl());
        } finally {
            platform.platform().restart(PlatformService.WEB, Map.of());
        }
    }

    /** The provider's authorization request the browser made (the provider records every call it got). */
    private static RecordedRequest authorizeRequest() {
        while (true) {
            RecordedRequest request;
            try {
                request = provider.takeRequest(5, TimeUnit.SECONDS);
            } catch (RuntimeException none) {
                throw new AssertionError("the provider got no authorization request", none);
            }
            if (request.getRequestUrl() != null && request.getRequestUrl().encodedPath().endsWith("/authorize")) {
                return request;
            }
        }
    }

    // ---- helpers ----------------------------------------------------------------------------------

    private static RequestSpecification ops() {
        return given().baseUri(platform.gateway().toString()).header("x-ops-key", platform.opsKey()).contentType(ContentType.JSON);
    }

    private static RequestSpecification bearer(String token) {
        return given().baseUri(platform.gateway().toString()).header("Authorization", "Bearer " + token);
    }

    /**
     * The template with its ids filled: {@link #ANY_ID}, but a booking link's token, which is a
     * credential (the log scan looks for it in every log, where an id is written freely).
     */
    private static String concrete(String template) {
        return template.replace("{token}", "bk" + UUID.randomUUID().toString().replace("-", ""))
                .replaceAll("\\{[^}]+}", ANY_ID);
    }

    private static Response call(Caller caller, String method, String path) {
        RequestSpecification request = given().baseUri(platform.gateway().toString()).header(caller.header(), caller.value());
        if (path.endsWith("-attachments")) {
            // An upload, as a client sends it (multipart): a JSON body would be refused 415 before access is decided.
            request = request.multiPart("file", "note.txt", "a note".getBytes(StandardCharsets.UTF_8), "text/plain");
        } else if (method.equals("POST") || method.equals("PUT")) {
            request = request.contentType(ContentType.JSON).body("{}");
        }
        return request.request(method, path);
    }

    private static void expect(Caller caller, String method, String path, int status, String error) {
        Response answer = call(caller, method, path);
        assertEquals(status, answer.getStatusCode(), method + " " + path + ": " + answer.asString());
        assertEquals(error, answer.jsonPath().getString("error"));
    }

    /** A new local account with one role: "<id> <email> <password>". */
    private static String account(String role, String prescriber) {
        String email = role + "." + UUID.randomUUID() + "@people-e2e.example";
        String password = "a long password " + UUID.randomUUID();
        Map<String, Object> body = new LinkedHashMap<>(Map.of("email", email, "name", "E2E " + role, "roles", List.of(role),
                "password", password));
        if (prescriber != null) {
            body.put("prescriberId", prescriber);
        }
        String id = ops().body(body).post("/ops/v1/accounts").then().statusCode(201).extract().path("account.id");
        return id + " " + email + " " + password;
    }

    private static String signIn(String account) {
        String[] parts = account.split(" ", 3);
        return given().baseUri(platform.gateway().toString()).contentType(ContentType.JSON)
                .body(Map.of("email", parts[1], "password", parts[2])).post("/ops/v1/sessions")
                .then().statusCode(201).extract().path("token");
    }

    private static Principal person(Principal.Role role, String prescriber) {
        return new Principal(Principal.Type.PERSON, ANY_ID, Set.of(role), Optional.ofNullable(prescriber));
    }

    /** A token of the deployment's provider for {@code subject}, valid for {@code seconds} (negative: expired). */
    private static String token(String subject, Map<String, Object> claims, long seconds) {
        return provider.issueToken(ISSUER, subject, AUDIENCE, claims, seconds).serialize();
    }

    /** Ends a session's 12 hours now, as the clock would (the gateway's own table). */
    private static void expire(String token) throws Exception {
        PostgresServer postgres = platform.infrastructure().postgres();
        String hash = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8)));
        try (Connection connection = DriverManager.getConnection(postgres.jdbcUrl(PlatformService.GATEWAY.database()),
                postgres.username(), postgres.password());
             PreparedStatement statement = connection.prepareStatement(
                     "update sessions set expires_at = now() - interval '1 second' where token_hash = ?")) {
            statement.setString(1, hash);
            assertEquals(1, statement.executeUpdate());
        }
    }
}
