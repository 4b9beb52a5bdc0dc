package com.telemed.web.console.session;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.delete;
import static com.github.tomakehurst.wiremock.client.WireMock.deleteRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.telemed.web.PageCalls.browser;
import static com.telemed.web.PageCalls.form;
import static com.telemed.web.PageCalls.json;
import static com.telemed.web.console.ConsoleCalls.assertSeeOther;
import static com.telemed.web.console.ConsoleCalls.page;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.web.Neighbours;
import com.telemed.web.console.ConsoleCalls;
import com.telemed.web.console.ConsoleCalls.TestSession;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The console's sign-in, its sealed session cookie and its limits, the form token and sign-out, against a stand-in gateway. */
@QuarkusTest
@WithTestResource(value = Neighbours.class, scope = TestResourceScope.GLOBAL)
class ConsoleSessionTest {

    static final String COOKIE_ATTRIBUTES = "; Path=/console; HttpOnly; Secure; SameSite=Lax";
    static final String CLEARED = "console_session=; Max-Age=0" + COOKIE_ATTRIBUTES;

    @BeforeEach
    void reset() {
        Neighbours.reset();
    }

    static void signInAnswers(List<String> roles, String prescriberId) {
        Neighbours.gateway().stubFor(post(urlPathEqualTo("/ops/v1/sessions")).willReturn(aResponse().withStatus(201)
                .withHeader("Content-Type", "application/json")
                .withBody(json(Map.of("token", ConsoleCalls.TOKEN, "expiresAt", "2030-03-01T22:00:00.000Z")))));
        Map<String, Object> account = new LinkedHashMap<>();
        account.put("id", ConsoleCalls.ACCOUNT_ID);
        account.put("email", "ada@clinic.example");
        account.put("name", "Dr Ada Okafor");
        account.put("roles", roles);
        account.put("prescriberId", prescriberId);
        account.put("createdAt", "2030-01-01T00:00:00.000Z");
        Neighbours.gateway().stubFor(get(urlPathEqualTo("/ops/v1/sessions/current"))
                .withHeader("Authorization", equalTo("Bearer " + ConsoleCalls.TOKEN))
                .willReturn(okJson(json(Map.of("account", account, "expiresAt", "2030-03-01T22:00:00.000Z")))));
    }

    static Response signIn(String email, String password) {
        return form().formParam("email", email).formParam("password", password).post("/console/sign-in");
    }

    static String cookieValue(Response response) {
        String set = response.header("Set-Cookie");
        assertTrue(set.startsWith("console_session=") && set.endsWith(COOKIE_ATTRIBUTES), set);
        return set.substring("console_session=".length(), set.length() - COOKIE_ATTRIBUTES.length());
    }

    @Test
    void theSignInPageHasItsFormWithoutAToken() {
        Document page = page(browser().get("/console/sign-in"), 200);
        assertEquals("Sign in", page.selectFirst("h1").text());
        Element form = page.selectFirst("form[method=post][action=/console/sign-in]");
        assertEquals("Email", page.selectFirst("label[for=email]").text());
        assertEquals("email", form.selectFirst("#email").attr("name"));
        assertEquals("Password", page.selectFirst("label[for=password]").text());
        assertEquals("password", form.selectFirst("#password").attr("type"));
        assertEquals("Sign in", form.selectFirst("button").text());
        assertNull(form.selectFirst("[name=csrf]"));
        assertNull(page.selectFirst("nav"), "no header links before signing in");
        Neighbours.gateway().verify(0, anyRequestedFor(anyUrl()));
    }

    @Test
    void aSignInSetsTheSealedCookieAndLeadsToTheQueue() {
        signInAnswers(List.of("prescriber"), ConsoleCalls.PRESCRIBER_ID);
        Response signedIn = signIn(" ada@clinic.example ", "correct horse battery");
        assertSeeOther(signedIn, "/console/queue");
        String cookie = cookieValue(signedIn);
        assertTrue(!cookie.contains("ops_") && cookie.matches("[A-Za-z0-9_-]+"), cookie);
        Neighbours.gateway().verify(postRequestedFor(urlPathEqualTo("/ops/v1/sessions"))
                .withRequestBody(equalToJson("{\"email\":\"ada@clinic.example\",\"password\":\"correct horse battery\"}")));

        Response home = browser().cookie("console_session", cookie).get("/console");
        assertSeeOther(home, "/console/queue");
        assertNull(home.header("Set-Cookie"), "a session just stored is not stored again");
    }

    @Test
    void anAdministratorOnlyIsLedToTheAuditLog() {
        signInAnswers(List.of("admin"), null);
        Response signedIn = signIn("root@platform.example", "correct horse battery");
        assertSeeOther(signedIn, "/console/audit");
        assertSeeOther(browser().cookie("console_session", cookieValue(signedIn)).get("/console"), "/console/audit");
    }

    @Test
    void aRefusedSignInShowsTheFormAgainWithTheEmail() {
        Neighbours.gateway().stubFor(post(urlPathEqualTo("/ops/v1/sessions")).willReturn(aResponse().withStatus(401)
                .withHeader("Content-Type", "application/json").withBody("{\"error\":\"Invalid email or password\"}")));
        Response refused = signIn("ada@clinic.example", "wrong password!!");
        Document page = page(refused, 401);
        assertEquals("Invalid email or password", page.selectFirst("p[role=alert]#form-error").text());
        assertEquals("ada@clinic.example", page.selectFirst("#email").val());
        assertEquals("", page.selectFirst("#password").val(), "never the password");
        assertNull(refused.header("Set-Cookie"));
        Neighbours.gateway().verify(0, getRequestedFor(urlPathEqualTo("/ops/v1/sessions/current")));
    }

    @Test
    void tooManyAttemptsSaySo() {
        Neighbours.gateway().stubFor(post(urlPathEqualTo("/ops/v1/sessions")).willReturn(aResponse().withStatus(429)
                .withHeader("Retry-After", "600").withHeader("Content-Type", "application/json").withBody("{\"error\":\"Too Many Requests\"}")));
        Document page = page(signIn("ada@clinic.example", "wrong password!!"), 429);
        assertEquals("Too many attempts. Try again later.", page.selectFirst("#form-error").text());
    }

    @Test
    void anEmptyFieldIsNamedNextToItAndNothingIsAsked() {
        Document page = page(signIn("ada@clinic.example", ""), 400);
        assertEquals("Enter your password", page.selectFirst("p.field-error#error-password").text());
        assertEquals("true", page.selectFirst("#password").attr("aria-invalid"));
        assertEquals("error-password", page.selectFirst("#password").attr("aria-describedby"));
        assertEquals("ada@clinic.example", page.selectFirst("#email").val());
        assertNull(page.selectFirst("#error-email"));
        assertTrue(page.selectFirst("#email").attr("aria-invalid").isEmpty());

        Document noEmail = page(signIn("  ", "correct horse battery"), 400);
        assertEquals("Enter your email", noEmail.selectFirst("#error-email").text());
        assertEquals("error-email", noEmail.selectFirst("#email").attr("aria-describedby"));
        Neighbours.gateway().verify(0, anyRequestedFor(anyUrl()));
    }

    @Test
    void withoutAUsableCookieEveryPageLeadsToTheSignIn() {
        Instant now = Instant.now();
        assertSeeOther(browser().get("/console"), "/console/sign-in");
        assertNull(browser().get("/console").header("Set-Cookie"), "nothing to clear");

        TestSession idle = ConsoleCalls.session(List.of("prescriber"), ConsoleCalls.PRESCRIBER_ID, now.minus(Duration.ofHours(1)),
                now.minus(Duration.ofMinutes(31)));
        TestSession old = ConsoleCalls.session(List.of("prescriber"), ConsoleCalls.PRESCRIBER_ID, now.minus(Duration.ofHours(12)).minusSeconds(5),
                now.minusSeconds(30));
        String tampered = ConsoleCalls.prescriber().cookie();
        tampered = tampered.substring(0, 20) + (tampered.charAt(20) == 'A' ? 'B' : 'A') + tampered.substring(21);
        String otherKey = ConsoleCalls.seal(List.of("another-console-session-key-of-32-characters")).seal(
                new ConsoleSession(ConsoleCalls.TOKEN, "acc", "Name", List.of("admin"), null, "c", now, now));
        for (String cookie : List.of(idle.cookie(), old.cookie(), tampered, otherKey, "garbage")) {
            for (String path : List.of("/console", "/console/queue", "/console/requests/r1", "/console/audit")) {
                Response answer = browser().cookie("console_session", cookie).get(path);
                assertSeeOther(answer, "/console/sign-in");
                assertEquals(CLEARED, answer.header("Set-Cookie"), path);
            }
            Response posted = form().cookie("console_session", cookie).formParam("csrf", idle.csrf()).post("/console/sign-out");
            assertSeeOther(posted, "/console/sign-in");
        }
        Neighbours.gateway().verify(0, anyRequestedFor(anyUrl()));
    }

    @Test
    void aSessionSeenAMinuteAgoIsStoredAgainSeenNow() {
        Instant now = Instant.now();
        TestSession seen = ConsoleCalls.session(List.of("support"), null, now.minus(Duration.ofHours(2)), now.minus(Duration.ofMinutes(2)));
        Response answer = browser().cookie("console_session", seen.cookie()).get("/console");
        assertSeeOther(answer, "/console/queue");
        ConsoleSession stored = ConsoleCalls.seal(List.of(ConsoleProductionSettings.DEVELOPMENT_KEY)).open(cookieValue(answer)).orElseThrow();
        assertTrue(!stored.lastSeenAt().isBefore(now), "seen now");
        assertEquals(now.minus(Duration.ofHours(2)).toEpochMilli(), stored.signedInAt().toEpochMilli(), "its start unchanged");
        assertEquals(seen.csrf(), stored.csrf());
    }

    @Test
    void signingOutEndsTheGatewaysSessionAndClearsTheCookie() {
        Neighbours.gateway().stubFor(delete(urlPathEqualTo("/ops/v1/sessions/current")).willReturn(aResponse().withStatus(204)));
        TestSession session = ConsoleCalls.prescriber();
        Response out = ConsoleCalls.formAs(session).formParam("csrf", session.csrf()).post("/console/sign-out");
        assertSeeOther(out, "/console/sign-in");
        assertEquals(CLEARED, out.header("Set-Cookie"));
        Neighbours.gateway().verify(1, deleteRequestedFor(urlPathEqualTo("/ops/v1/sessions/current"))
                .withHeader("Authorization", equalTo("Bearer " + ConsoleCalls.TOKEN)));
    }

    @Test
    void aFormWithoutItsTokenOrWithAnotherIsRefusedAndNothingIsAsked() {
        TestSession session = ConsoleCalls.prescriber();
        TestSession other = ConsoleCalls.prescriber();
        for (Response refused : List.of(ConsoleCalls.formAs(session).formParam("x", "1").post("/console/sign-out"),
                ConsoleCalls.formAs(session).formParam("csrf", other.csrf()).post("/console/sign-out"),
                ConsoleCalls.formAs(session).formParam("csrf", "").post("/console/sign-out"))) {
            Document page = page(refused, 403);
            assertEquals("Forbidden", page.selectFirst("h1").text());
            assertEquals("This form has expired. Reload the page and try again.", page.selectFirst("h1 + p").text());
        }
        Neighbours.gateway().verify(0, anyRequestedFor(anyUrl()));
    }

    @Test
    void theGatewayDownIsThe503Page() {
        Neighbours.gateway().stubFor(post(urlPathEqualTo("/ops/v1/sessions")).willReturn(aResponse().withStatus(503)));
        Document page = page(signIn("ada@clinic.example", "correct horse battery"), 503);
        assertEquals("Sorry, the service is unavailable", page.selectFirst("h1").text());
    }
}
