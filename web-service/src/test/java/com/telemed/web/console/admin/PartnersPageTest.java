package com.telemed.web.console.admin;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlMatching;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.telemed.web.console.ConsoleCalls.as;
import static com.telemed.web.console.ConsoleCalls.assertSeeOther;
import static com.telemed.web.console.ConsoleCalls.formAs;
import static com.telemed.web.console.ConsoleCalls.page;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.http.Fault;
import com.telemed.web.Neighbours;
import com.telemed.web.console.ConsoleCalls;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The partners pages: creating one (its keys shown once, in a {@code 200} answer, never in an address or a
 * log line), finding one, its page, rotating its API key; refusals; and who may use them.
 */
@QuarkusTest
@WithTestResource(value = Neighbours.class, scope = TestResourceScope.GLOBAL)
class PartnersPageTest {

    static final String PARTNER = "5f0c3a1e-7b2d-4c8e-9a1f-2e3d4c5b6a70";
    static final String API_KEY = "apx_0123456789abcdef0123456789abcdef";
    static final String NEW_API_KEY = "apx_fedcba9876543210fedcba9876543210";
    static final String PUBLISHABLE_KEY = "pk_00112233445566778899aabbccddeeff";
    static final String PARTNER_JSON = "{\"id\":\"" + PARTNER + "\",\"name\":\"Acme <Health>\",\"createdAt\":\"2030-03-01T09:30:15.250Z\"}";

    @BeforeEach
    void reset() {
        Neighbours.reset();
    }

    static void partnerIs() {
        Neighbours.gateway().stubFor(get(urlPathEqualTo("/ops/v1/partners/" + PARTNER)).willReturn(okJson("{\"partner\":" + PARTNER_JSON + "}")));
    }

    @Test
    void thePartnersPageHasTheCreateAndFindFormsAndTheAdministratorsNav() {
        Document page = page(as(ConsoleCalls.admin()).get("/console/partners"), 200);
        assertEquals("Partners", page.selectFirst("h1").text());
        Element create = page.selectFirst("form[method=post][action=/console/partners]");
        assertEquals("Name", page.selectFirst("label[for=name]").text());
        assertEquals("name", create.selectFirst("#name").attr("name"));
        assertEquals("Create partner", create.selectFirst("button").text());
        Element find = page.selectFirst("form[method=get][action=/console/partners]");
        assertEquals("partnerId", find.selectFirst("#partnerId").attr("name"));
        assertEquals("Partner id", page.selectFirst("label[for=partnerId]").text());
        assertEquals(ConsoleCalls.ADMIN_NAV,
                page.select("header nav a").stream().map(Element::text).toList());
        assertEquals(List.of("/console/audit", "/console/conversations", "/console/partners", "/console/accounts", "/console/drugs", "/console/surveys",
                "/console/prescribers", "/console/deliveries", "/console/pharmacy-keys", "/console/transmissions"),
                page.select("header nav a").stream().map(link -> link.attr("href")).toList());
        // Nothing but the nav's unread count (console.session.UnreadThreads).
        Neighbours.gateway().verify(0, anyRequestedFor(urlMatching("(?!/ops/v1/conversations\\?).*")));
    }

    @Test
    void creatingAPartnerShowsItsKeysOnceInThePageAndNowhereElse() {
        Neighbours.gateway().stubFor(post(urlPathEqualTo("/ops/v1/partners")).willReturn(aResponse().withStatus(201)
                .withHeader("Content-Type", "application/json")
                .withBody("{\"partner\":" + PARTNER_JSON + ",\"apiKey\":\"" + API_KEY + "\",\"publishableKey\":\"" + PUBLISHABLE_KEY + "\"}")));
        ConsoleCalls.TestSession admin = ConsoleCalls.admin();
        AtomicReference<Response> answer = new AtomicReference<>();
        List<String> lines = LogLines.during(1, () -> answer.set(formAs(admin).formParam("csrf", admin.csrf()).formParam("name", "Acme <Health>")
                .post("/console/partners")));
        Document page = page(answer.get(), 200);
        assertEquals("Partner", page.selectFirst("h1").text());
        assertEquals("Partner created", page.selectFirst("p#notice[role=status]").text());
        assertEquals("Acme <Health>", page.selectFirst("#partner-name").text());
        assertEquals(PARTNER, page.selectFirst("#partner-id").text());
        assertEquals("2030-03-01 09:30", page.selectFirst("#partner-created").text());
        assertEquals(API_KEY, page.selectFirst("output#api-key").text());
        assertEquals(PUBLISHABLE_KEY, page.selectFirst("output#publishable-key").text());
        assertEquals("Shown once: copy it now.", page.selectFirst("#shown-once").text());
        assertEquals("/console/partners/" + PARTNER + "/rotate-key", page.selectFirst("form.rotate-key").attr("action"));
        assertEquals("/console/partners/" + PARTNER + "/deliveries", page.selectFirst("a#deliveries-link").attr("href"));
        assertEquals("no-store", answer.get().header("Cache-Control"));
        assertNull(answer.get().header("Location"));
        assertNull(answer.get().header("Set-Cookie"));
        Neighbours.gateway().verify(1, postRequestedFor(urlPathEqualTo("/ops/v1/partners"))
                .withHeader("Authorization", equalTo("Bearer " + ConsoleCalls.TOKEN))
                .withRequestBody(equalToJson("{\"name\":\"Acme <Health>\"}")));
        assertTrue(lines.stream().noneMatch(line -> line.contains(API_KEY) || line.contains(PUBLISHABLE_KEY)
                || line.contains("apx_") || line.contains("pk_")), () -> "a key in the log: " + lines);
    }

    @Test
    void aNameTheGatewayRefusesIsShownNextToItsFieldWithWhatWasTyped() {
        Neighbours.gateway().stubFor(post(urlPathEqualTo("/ops/v1/partners")).willReturn(aResponse().withStatus(400)
                .withHeader("Content-Type", "application/json")
                .withBody("{\"error\":[{\"code\":\"too_small\",\"path\":[\"name\"],\"message\":\"String must contain at least 1 character(s)\"}]}")));
        ConsoleCalls.TestSession admin = ConsoleCalls.admin();
        Document page = page(formAs(admin).formParam("csrf", admin.csrf()).formParam("name", "").post("/console/partners"), 400);
        assertEquals("String must contain at least 1 character(s)", page.selectFirst("p.field-error#error-name").text());
        assertEquals("true", page.selectFirst("#name").attr("aria-invalid"));
        assertEquals("error-name", page.selectFirst("#name").attr("aria-describedby"));
        assertTrue(page.title().startsWith("Error: "));
        assertNull(page.selectFirst("output#api-key"));
        Neighbours.gateway().verify(1, postRequestedFor(urlPathEqualTo("/ops/v1/partners")).withRequestBody(equalToJson("{\"name\":\"\"}")));

        String typed = "x".repeat(201);
        Neighbours.gateway().stubFor(post(urlPathEqualTo("/ops/v1/partners")).willReturn(aResponse().withStatus(400)
                .withHeader("Content-Type", "application/json")
                .withBody("{\"error\":[{\"code\":\"too_big\",\"path\":[\"name\"],\"message\":\"String must contain at most 200 character(s)\"}]}")));
        Document kept = page(formAs(admin).formParam("csrf", admin.csrf()).formParam("name", typed).post("/console/partners"), 400);
        assertEquals(typed, kept.selectFirst("#name").val());
        assertEquals("String must contain at most 200 character(s)", kept.selectFirst("#error-name").text());
    }

    @Test
    void theFindFormLeadsToThePartnersPage() {
        assertSeeOther(as(ConsoleCalls.admin()).redirects().follow(false).get("/console/partners?partnerId=%20" + PARTNER + "%20"),
                "/console/partners/" + PARTNER);
        assertSeeOther(as(ConsoleCalls.admin()).redirects().follow(false).get("/console/partners?partnerId=a%2Fb"), "/console/partners/a%2Fb");
        Neighbours.gateway().verify(0, anyRequestedFor(anyUrl()));

        partnerIs();
        Document page = page(as(ConsoleCalls.admin()).get("/console/partners/" + PARTNER), 200);
        assertEquals("Acme <Health>", page.selectFirst("#partner-name").text());
        assertEquals(PARTNER, page.selectFirst("#partner-id").text());
        assertEquals("2030-03-01 09:30", page.selectFirst("#partner-created").text());
        assertNull(page.selectFirst("output"));
        assertNull(page.selectFirst("#notice"));
        assertEquals("Rotate API key", page.selectFirst("form.rotate-key button").text());
        Neighbours.gateway().verify(1, getRequestedFor(urlPathEqualTo("/ops/v1/partners/" + PARTNER))
                .withHeader("Authorization", equalTo("Bearer " + ConsoleCalls.TOKEN)));
    }

    @Test
    void anUnknownPartnerIsThe404Page() {
        Neighbours.gateway().stubFor(get(urlPathEqualTo("/ops/v1/partners/nope")).willReturn(aResponse().withStatus(404)
                .withHeader("Content-Type", "application/json").withBody("{\"error\":\"Partner not found\"}")));
        Document page = page(as(ConsoleCalls.admin()).get("/console/partners/nope"), 404);
        assertEquals("Partner not found", page.selectFirst("h1").text());
        assertEquals("/console/partners", page.selectFirst("main a[href=/console/partners]").attr("href"));
    }

    @Test
    void rotatingTheKeyAnswersThePageWithTheNewKeyNotARedirect() {
        Neighbours.gateway().stubFor(post(urlPathEqualTo("/ops/v1/partners/" + PARTNER + "/api-key/rotate"))
                .willReturn(okJson("{\"apiKey\":\"" + NEW_API_KEY + "\"}")));
        partnerIs();
        ConsoleCalls.TestSession admin = ConsoleCalls.admin();
        AtomicReference<Response> answer = new AtomicReference<>();
        List<String> lines = LogLines.during(1, () -> answer.set(formAs(admin).formParam("csrf", admin.csrf())
                .post("/console/partners/" + PARTNER + "/rotate-key")));
        Document page = page(answer.get(), 200);
        assertEquals("API key rotated", page.selectFirst("#notice").text());
        assertEquals(NEW_API_KEY, page.selectFirst("output#api-key").text());
        assertNull(page.selectFirst("output#publishable-key"));
        assertEquals("Shown once: copy it now.", page.selectFirst("#shown-once").text());
        assertEquals("Acme <Health>", page.selectFirst("#partner-name").text());
        assertEquals("no-store", answer.get().header("Cache-Control"));
        assertNull(answer.get().header("Location"));
        Neighbours.gateway().verify(1, postRequestedFor(urlPathEqualTo("/ops/v1/partners/" + PARTNER + "/api-key/rotate"))
                .withHeader("Authorization", equalTo("Bearer " + ConsoleCalls.TOKEN)));
        assertTrue(lines.stream().noneMatch(line -> line.contains(NEW_API_KEY) || line.contains("apx_")), () -> "a key in the log: " + lines);
        page.select("a[href], form[action]").forEach(element -> assertFalse((element.attr("href") + element.attr("action")).contains("apx_")));
    }

    @Test
    void rotatingAnUnknownPartnersKeyIsThe404Page() {
        Neighbours.gateway().stubFor(post(urlPathEqualTo("/ops/v1/partners/nope/api-key/rotate")).willReturn(aResponse().withStatus(404)
                .withHeader("Content-Type", "application/json").withBody("{\"error\":\"Partner not found\"}")));
        ConsoleCalls.TestSession admin = ConsoleCalls.admin();
        Document page = page(formAs(admin).formParam("csrf", admin.csrf()).post("/console/partners/nope/rotate-key"), 404);
        assertEquals("Partner not found", page.selectFirst("h1").text());
    }

    @Test
    void aFormWithoutTheSessionsTokenIsRefusedAndNothingIsAsked() {
        ConsoleCalls.TestSession admin = ConsoleCalls.admin();
        for (Response response : List.of(formAs(admin).formParam("name", "Acme").post("/console/partners"),
                formAs(admin).formParam("csrf", "nope").formParam("name", "Acme").post("/console/partners"),
                formAs(admin).formParam("csrf", "nope").post("/console/partners/" + PARTNER + "/rotate-key"),
                formAs(admin).post("/console/partners/" + PARTNER + "/rotate-key"))) {
            Document page = page(response, 403);
            assertEquals("This form has expired. Reload the page and try again.", page.selectFirst("h1 + p").text());
        }
        Neighbours.gateway().verify(0, anyRequestedFor(anyUrl()));
    }

    @Test
    void aPrescriberOrSupportGetsTheForbiddenPageAndNothingIsAsked() {
        ConsoleCalls.TestSession support = ConsoleCalls.support();
        for (ConsoleCalls.TestSession session : List.of(ConsoleCalls.prescriber(), support)) {
            for (Response response : List.of(as(session).get("/console/partners"), as(session).get("/console/partners?partnerId=" + PARTNER),
                    as(session).get("/console/partners/" + PARTNER),
                    formAs(session).formParam("csrf", session.csrf()).formParam("name", "Acme").post("/console/partners"),
                    formAs(session).formParam("csrf", session.csrf()).post("/console/partners/" + PARTNER + "/rotate-key"))) {
                Document page = page(response, 403);
                assertEquals("Forbidden", page.selectFirst("h1").text());
                assertEquals("You do not have access to this page.", page.selectFirst("h1 + p").text());
                assertEquals(session == support ? List.of("Queue", "Conversations", "Webhook deliveries", "Failed transmissions") : List.of("Queue", "Appointments", "Availability", "Conversations"),
                        page.select("header nav a").stream().map(Element::text).toList());
            }
        }
        Neighbours.gateway().verify(0, anyRequestedFor(anyUrl()));
    }

    @Test
    void theGatewaysRefusalsAndFailuresAreItsPages() {
        Neighbours.gateway().stubFor(get(urlPathEqualTo("/ops/v1/partners/" + PARTNER)).willReturn(aResponse().withStatus(401)
                .withHeader("Content-Type", "application/json").withBody("{\"error\":\"Invalid token\"}")));
        Response signedOut = as(ConsoleCalls.admin()).redirects().follow(false).get("/console/partners/" + PARTNER);
        assertSeeOther(signedOut, "/console/sign-in");
        assertTrue(signedOut.header("Set-Cookie").contains("Max-Age=0"));

        Neighbours.gateway().stubFor(get(urlPathEqualTo("/ops/v1/partners/" + PARTNER)).willReturn(aResponse().withStatus(403)
                .withHeader("Content-Type", "application/json").withBody("{\"error\":\"Forbidden\"}")));
        assertEquals("You do not have access to this page.",
                page(as(ConsoleCalls.admin()).get("/console/partners/" + PARTNER), 403).selectFirst("h1 + p").text());

        Neighbours.gateway().stubFor(get(urlPathEqualTo("/ops/v1/partners/" + PARTNER)).willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));
        assertEquals("Sorry, the service is unavailable", page(as(ConsoleCalls.admin()).get("/console/partners/" + PARTNER), 503)
                .selectFirst("h1").text());

        Neighbours.gateway().stubFor(post(urlPathEqualTo("/ops/v1/partners")).willReturn(aResponse().withStatus(500)));
        ConsoleCalls.TestSession admin = ConsoleCalls.admin();
        assertEquals("Sorry, the service is unavailable", page(formAs(admin).formParam("csrf", admin.csrf()).formParam("name", "Acme")
                .post("/console/partners"), 503).selectFirst("h1").text());
    }
}
