package com.telemed.web.console.session;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.telemed.web.PageCalls.browser;
import static com.telemed.web.PageCalls.form;
import static com.telemed.web.PageCalls.json;
import static com.telemed.web.console.ConsoleCalls.assertSeeOther;
import static com.telemed.web.console.ConsoleCalls.page;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.telemed.web.Neighbours;
import com.telemed.web.console.ConsoleCalls;
import com.telemed.web.page.PageHeaders;
import com.telemed.common.config.ProductionRequirement;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import no.nav.security.mock.oauth2.token.DefaultOAuth2TokenCallback;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The console's OpenID Connect sign-in (interfaces.md E1) against a real provider (nav's mock-oauth2-server,
 * started by {@link Neighbours}) and a stand-in gateway: the whole redirect chain (the console to the provider
 * with PKCE, the provider back with a code, quarkus-oidc's exchange, the console's own cookie sealed with the
 * access token and quarkus-oidc's removed), the gateway refusing the token, the token's expiry bounding the
 * session, the password form when local accounts are off at the gateway, and production's settings.
 */
@QuarkusTest
@WithTestResource(value = Neighbours.class, scope = TestResourceScope.GLOBAL)
class OidcSignInTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String EXPIRES_AT = "2030-03-01T22:00:00.000Z";

    @BeforeEach
    void reset() {
        Neighbours.reset();
    }

    static void currentAnswers(List<String> roles, String prescriberId) {
        Map<String, Object> account = new LinkedHashMap<>();
        account.put("id", ConsoleCalls.ACCOUNT_ID);
        account.put("email", "ada@clinic.example");
        account.put("name", "Dr Ada Okafor");
        account.put("roles", roles);
        account.put("prescriberId", prescriberId);
        account.put("createdAt", "2030-01-01T00:00:00.000Z");
        Neighbours.gateway().stubFor(get(urlPathEqualTo("/ops/v1/sessions/current"))
                .willReturn(okJson(json(Map.of("account", account, "expiresAt", EXPIRES_AT)))));
    }

    /** The browser's way from the console's link to the console's answer after the provider: every hop, cookies kept. */
    static Response throughProvider(String subject) {
        Neighbours.oidc().enqueueCallback(new DefaultOAuth2TokenCallback(Neighbours.OIDC_ISSUER, subject, "JWT", List.of("telemed-ops"),
                Map.of("email", "ada@clinic.example"), 300L));
        // 1. The console sends the browser to the provider: the code flow with PKCE, a state cookie.
        Response toProvider = browser().get("/console/sign-in/oidc");
        assertEquals(302, toProvider.statusCode(), toProvider::asString);
        URI authorize = URI.create(toProvider.header("Location"));
        String issuer = Neighbours.oidc().issuerUrl(Neighbours.OIDC_ISSUER).toString();
        assertTrue(authorize.toString().startsWith(issuer.replaceAll("/$", "") + "/authorize?"), authorize::toString);
        Map<String, String> query = query(authorize);
        assertEquals(Neighbours.OIDC_CLIENT_ID, query.get("client_id"));
        assertEquals("code", query.get("response_type"));
        assertEquals("S256", query.get("code_challenge_method"));
        assertNotNull(query.get("code_challenge"));
        assertNotNull(query.get("state"));
        assertTrue(query.get("redirect_uri").endsWith("/console/sign-in/oidc"), query.get("redirect_uri"));
        Map<String, String> cookies = new LinkedHashMap<>(toProvider.getCookies());
        assertTrue(cookies.keySet().stream().anyMatch(name -> name.startsWith("q_auth")), cookies::toString);
        // 2. The provider signs the person in (no form: mock-oauth2-server's non-interactive login) and sends them back.
        Response back = browser().get(authorize.toString());
        assertEquals(302, back.statusCode(), back::asString);
        URI callback = URI.create(back.header("Location"));
        assertEquals("/console/sign-in/oidc", callback.getPath());
        assertNotNull(query(callback).get("code"));
        // 3. quarkus-oidc exchanges the code (with the PKCE verifier), keeps the tokens in its cookie and goes back to the page.
        Response exchanged = browser().cookies(cookies).get(callback.getRawPath() + "?" + callback.getRawQuery());
        assertEquals(302, exchanged.statusCode(), exchanged::asString);
        assertEquals("/console/sign-in/oidc", URI.create(exchanged.header("Location")).getPath());
        cookies.putAll(exchanged.getCookies());
        assertTrue(cookies.containsKey("q_session"), cookies::toString);
        // 4. The console's own session.
        return browser().cookies(cookies).get("/console/sign-in/oidc");
    }

    @Test
    void theSignInPageOffersBothWays() {
        Document document = page(browser().get("/console/sign-in"), 200);
        assertEquals("/console/sign-in/oidc", document.selectFirst("a#sign-in-oidc").attr("href"));
        assertEquals("Sign in with your organisation", document.selectFirst("a#sign-in-oidc").text());
        assertNotNull(document.selectFirst("form[method=post][action=/console/sign-in] input[name=password]"));
    }

    @Test
    void theCodeFlowEndsInTheConsolesOwnSession() throws Exception {
        currentAnswers(List.of("prescriber"), ConsoleCalls.PRESCRIBER_ID);
        String subject = "person-" + UUID.randomUUID();
        Response signedIn = throughProvider(subject);

        assertSeeOther(signedIn, "/console/queue");
        List<String> setCookies = signedIn.headers().getValues("Set-Cookie");
        String console = setCookies.stream().filter(set -> set.startsWith("console_session=")).findFirst().orElseThrow();
        assertTrue(console.endsWith("; Path=/console; HttpOnly; Secure; SameSite=Lax"), console);
        assertTrue(setCookies.stream().anyMatch(set -> set.startsWith("q_session=;") && set.contains("Max-Age=0")), setCookies::toString);

        // The gateway was asked who it is with the provider's access token, and the console's cookie holds that token.
        var asked = Neighbours.gateway().findAll(getRequestedFor(urlPathEqualTo("/ops/v1/sessions/current")));
        assertEquals(1, asked.size());
        String authorization = asked.get(0).getHeader("Authorization");
        assertTrue(authorization.startsWith("Bearer "), authorization);
        String accessToken = authorization.substring("Bearer ".length());
        JsonNode claims = JSON.readTree(Base64.getUrlDecoder().decode(accessToken.split("\\.")[1]));
        assertEquals(subject, claims.get("sub").asText());
        assertEquals(Neighbours.oidc().issuerUrl(Neighbours.OIDC_ISSUER).toString(), claims.get("iss").asText());

        String sealed = console.substring("console_session=".length(), console.indexOf(';'));
        ConsoleSession session = ConsoleCalls.seal(List.of(ConsoleProductionSettings.DEVELOPMENT_KEY)).open(sealed).orElseThrow();
        assertEquals(accessToken, session.token());
        assertEquals(ConsoleCalls.ACCOUNT_ID, session.accountId());
        assertEquals(List.of("prescriber"), session.roles());
        assertEquals(ConsoleCalls.PRESCRIBER_ID, session.prescriberId());
        assertEquals(Instant.parse(EXPIRES_AT), session.expiresAt());
        assertEquals(64, session.csrf().length());
    }

    /**
     * Behind the gateway (issue #41): the provider is told to send the browser back to the public address the
     * gateway names in X-Forwarded-Host and X-Forwarded-Proto, not to this service's own.
     */
    @Test
    void theProviderSendsTheBrowserBackToThePublicAddressTheGatewayNames() {
        Response toProvider = browser().header("X-Forwarded-Host", "console.clinic.example").header("X-Forwarded-Proto", "https")
                .get("/console/sign-in/oidc");
        assertEquals(302, toProvider.statusCode(), toProvider::asString);
        assertEquals("https://console.clinic.example/console/sign-in/oidc",
                query(URI.create(toProvider.header("Location"))).get("redirect_uri"));

        toProvider = browser().header("X-Forwarded-Host", "localhost:18080").header("X-Forwarded-Proto", "http")
                .get("/console/sign-in/oidc");
        assertEquals("http://localhost:18080/console/sign-in/oidc", query(URI.create(toProvider.header("Location"))).get("redirect_uri"));
    }

    @Test
    void anAdministratorOnlyGoesToTheAuditLog() {
        currentAnswers(List.of("admin"), null);
        assertSeeOther(throughProvider("admin-" + UUID.randomUUID()), "/console/audit");
    }

    @Test
    void aTokenTheGatewayRefusesIsTheSignInPageAgain() {
        Neighbours.gateway().stubFor(get(urlPathEqualTo("/ops/v1/sessions/current"))
                .willReturn(aResponse().withStatus(401).withHeader("Content-Type", "application/json").withBody("{\"error\":\"Unauthorized\"}")));
        Response refused = throughProvider("stranger-" + UUID.randomUUID());
        Document document = page(refused, 401);
        assertEquals("Your organisation's sign-in is not accepted here", document.selectFirst("p#form-error[role=alert]").text());
        assertNotNull(document.selectFirst("a#sign-in-oidc"));
        assertTrue(refused.headers().getValues("Set-Cookie").stream().noneMatch(set -> set.startsWith("console_session=")));
    }

    @Test
    void theSessionNeverOutlivesItsToken() {
        Instant now = Instant.now().truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
        var seal = ConsoleCalls.seal(List.of(ConsoleProductionSettings.DEVELOPMENT_KEY));
        ConsoleSession ended = new ConsoleSession(ConsoleCalls.TOKEN, ConsoleCalls.ACCOUNT_ID, "Ada", List.of("support"), null, "c",
                now, now, now.minusSeconds(1));
        ConsoleSession open = new ConsoleSession(ConsoleCalls.TOKEN, ConsoleCalls.ACCOUNT_ID, "Ada", List.of("support"), null, "c",
                now, now, now.plusSeconds(60));
        assertTrue(seal.open(seal.seal(ended)).isEmpty());
        assertEquals(open, seal.open(seal.seal(open)).orElseThrow());
        // A page with a session past its token's end: the sign-in, cookie cleared, nothing asked of the gateway.
        Response answer = browser().cookie("console_session", seal.seal(ended)).get("/console/queue");
        assertSeeOther(answer, "/console/sign-in");
        assertEquals(ConsoleSessionTest.CLEARED, answer.header("Set-Cookie"));
        Neighbours.gateway().verify(0, anyRequestedFor(anyUrl()));
    }

    /** A session an OpenID Connect sign-in made: the provider's access token (no {@code ops_}), its expiry. */
    static String providerSession(String csrf) {
        Instant now = Instant.now();
        return ConsoleCalls.seal(List.of(ConsoleProductionSettings.DEVELOPMENT_KEY)).seal(new ConsoleSession("eyJhbGciOiJSUzI1NiJ9.e30.c2ln",
                ConsoleCalls.ACCOUNT_ID, "Ada", List.of("admin"), null, csrf, now, now, now.plusSeconds(300)));
    }

    @Test
    void signingOutEndsAtTheProviderAndAsksTheGatewayNothing() {
        URI endSession = URI.create(Neighbours.oidc().issuerUrl(Neighbours.OIDC_ISSUER).toString().replaceAll("/$", "") + "/endsession");
        String origin = endSession.getScheme() + "://" + endSession.getRawAuthority();
        // Its pages let the sign-out form's answer go to the provider.
        Response home = browser().cookie("console_session", providerSession("c1")).get("/console");
        assertEquals(303, home.statusCode());
        assertEquals(PageHeaders.policy(origin), home.header("Content-Security-Policy"));

        Response out = form().cookie("console_session", providerSession("c2")).formParam("csrf", "c2").post("/console/sign-out");
        assertEquals(303, out.statusCode(), out::asString);
        URI location = URI.create(out.header("Location"));
        assertEquals(endSession.toString(), location.getScheme() + "://" + location.getRawAuthority() + location.getRawPath());
        Map<String, String> query = query(location);
        assertEquals(Neighbours.OIDC_CLIENT_ID, query.get("client_id"));
        assertEquals(URI.create(io.restassured.RestAssured.baseURI + ":" + io.restassured.RestAssured.port + "/console/sign-in").toString(),
                query.get("post_logout_redirect_uri"));
        assertEquals(ConsoleSessionTest.CLEARED, out.header("Set-Cookie"));
        Neighbours.gateway().verify(0, anyRequestedFor(anyUrl()));

        // A form token not the session's: the expired-form page, nothing done.
        Document expired = com.telemed.web.PageCalls.pageOnly(form().cookie("console_session", providerSession("c3")).formParam("csrf", "other")
                .post("/console/sign-out"), 403, PageHeaders.policy(origin));
        assertEquals("This form has expired. Reload the page and try again.", expired.selectFirst("h1 + p").text());
        Neighbours.gateway().verify(0, anyRequestedFor(anyUrl()));
    }

    @Test
    void withoutLocalAccountsOnlyTheOrganisationsWayIsShown() {
        Neighbours.gateway().stubFor(post(urlPathEqualTo("/ops/v1/sessions"))
                .willReturn(aResponse().withStatus(404).withHeader("Content-Type", "application/json").withBody("{\"error\":\"Not found\"}")));
        Document document = page(form().formParam("email", "ada@clinic.example").formParam("password", "secret password")
                .post("/console/sign-in"), 404);
        assertEquals("Sign-in with a password is not available here", document.selectFirst("p#form-error[role=alert]").text());
        assertNull(document.selectFirst("input[name=password]"));
        assertNotNull(document.selectFirst("a#sign-in-oidc"));
    }

    @Test
    void productionRefusesAnIssuerWithoutTheClient() {
        assertEquals(List.of(), oidcRefusals(Map.of()));
        assertEquals(List.of("web.console.oidc.client-id (WEB_CONSOLE_OIDC_CLIENT_ID) is not set while web.console.oidc.issuer"
                        + " (WEB_CONSOLE_OIDC_ISSUER) is",
                "web.console.oidc.client-secret (WEB_CONSOLE_OIDC_CLIENT_SECRET) is not set while web.console.oidc.issuer"
                        + " (WEB_CONSOLE_OIDC_ISSUER) is"),
                oidcRefusals(Map.of("web.console.oidc.issuer", "https://login.example/realms/clinic", "web.console.oidc.client-secret", " ")));
        assertEquals(List.of(), oidcRefusals(Map.of("web.console.oidc.issuer", "https://login.example/realms/clinic",
                "web.console.oidc.client-id", "console", "web.console.oidc.client-secret", "a-secret")));
    }

    static List<String> oidcRefusals(Map<String, String> settings) {
        ProductionRequirement requirement = new ConsoleProductionSettings().oidc();
        return requirement.refusals(new SmallRyeConfigBuilder().withSources(new PropertiesConfigSource(settings, "test", 100)).build());
    }

    private static Map<String, String> query(URI uri) {
        Map<String, String> query = new LinkedHashMap<>();
        for (String pair : uri.getRawQuery().split("&")) {
            String[] parts = pair.split("=", 2);
            query.put(java.net.URLDecoder.decode(parts[0], StandardCharsets.UTF_8),
                    parts.length > 1 ? java.net.URLDecoder.decode(parts[1], StandardCharsets.UTF_8) : "");
        }
        return query;
    }
}
