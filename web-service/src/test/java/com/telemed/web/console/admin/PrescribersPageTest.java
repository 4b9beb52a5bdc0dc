package com.telemed.web.console.admin;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlMatching;
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
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The prescribers pages: creating one (its new id shown), finding one, its page with its weekly hours read-only; who may use them. */
@QuarkusTest
@WithTestResource(value = Neighbours.class, scope = TestResourceScope.GLOBAL)
class PrescribersPageTest {

    static final String ID = "3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f";
    static final String PRESCRIBER = "{\"prescriber\":{\"id\":\"" + ID + "\",\"name\":\"Dr Grace <Hopper>\",\"email\":\"grace@example.test\","
            + "\"createdAt\":\"2030-04-02T08:05:59Z\"}}";

    @BeforeEach
    void reset() {
        Neighbours.reset();
    }

    static void prescriberIs() {
        Neighbours.gateway().stubFor(get(urlPathEqualTo("/ops/v1/prescribers/" + ID)).willReturn(okJson(PRESCRIBER)));
    }

    static void availabilityAnswers(int status, String body) {
        Neighbours.gateway().stubFor(get(urlPathEqualTo("/ops/v1/prescribers/" + ID + "/availability")).willReturn(aResponse().withStatus(status)
                .withHeader("Content-Type", "application/json").withBody(body)));
    }

    @Test
    void thePrescribersPageHasTheCreateAndFindForms() {
        Document page = page(as(ConsoleCalls.admin()).get("/console/prescribers"), 200);
        assertEquals("Prescribers", page.selectFirst("h1").text());
        Element create = page.selectFirst("form[method=post][action=/console/prescribers]");
        assertEquals("name", create.selectFirst("#name").attr("name"));
        assertEquals("email", create.selectFirst("#email").attr("name"));
        assertEquals("Name", page.selectFirst("label[for=name]").text());
        assertEquals("Email", page.selectFirst("label[for=email]").text());
        assertEquals("Create prescriber", create.selectFirst("button").text());
        Element find = page.selectFirst("form[method=get][action=/console/prescribers]");
        assertEquals("prescriberId", find.selectFirst("#prescriberId").attr("name"));
        assertEquals("Prescriber id", page.selectFirst("label[for=prescriberId]").text());
        Neighbours.gateway().verify(0, anyRequestedFor(urlMatching("(?!/ops/v1/conversations\\?).*")));
    }

    @Test
    void creatingAPrescriberLeadsToItsPageWithItsNewId() {
        Neighbours.gateway().stubFor(post(urlPathEqualTo("/ops/v1/prescribers")).willReturn(aResponse().withStatus(201)
                .withHeader("Content-Type", "application/json").withBody(PRESCRIBER)));
        ConsoleCalls.TestSession admin = ConsoleCalls.admin();
        assertSeeOther(formAs(admin).redirects().follow(false).formParam("csrf", admin.csrf()).formParam("name", "Dr Grace <Hopper>")
                .formParam("email", "grace@example.test").post("/console/prescribers"), "/console/prescribers/" + ID + "?done=created");
        Neighbours.gateway().verify(1, postRequestedFor(urlPathEqualTo("/ops/v1/prescribers"))
                .withHeader("Authorization", equalTo("Bearer " + ConsoleCalls.TOKEN))
                .withRequestBody(equalToJson("{\"name\":\"Dr Grace <Hopper>\",\"email\":\"grace@example.test\"}")));

        prescriberIs();
        availabilityAnswers(404, "{\"error\":\"Availability not set\"}");
        Document page = page(as(admin).get("/console/prescribers/" + ID + "?done=created"), 200);
        assertEquals("Prescriber created", page.selectFirst("p#notice[role=status]").text());
        assertEquals(ID, page.selectFirst("#prescriber-id").text());
        assertEquals("Dr Grace <Hopper>", page.selectFirst("#prescriber-name").text());
        assertEquals("grace@example.test", page.selectFirst("#prescriber-email").text());
        assertEquals("2030-04-02 08:05", page.selectFirst("#prescriber-created").text());
        assertEquals("No weekly hours set.", page.selectFirst("#hours-none").text());
        assertNull(page.selectFirst("table"));
    }

    @Test
    void theGatewaysIssuesAreShownNextToTheirFieldsWithWhatWasTyped() {
        Neighbours.gateway().stubFor(post(urlPathEqualTo("/ops/v1/prescribers")).willReturn(aResponse().withStatus(400)
                .withHeader("Content-Type", "application/json")
                .withBody("{\"error\":[{\"code\":\"invalid_string\",\"path\":[\"email\"],\"message\":\"Invalid email\"}]}")));
        ConsoleCalls.TestSession admin = ConsoleCalls.admin();
        Document page = page(formAs(admin).formParam("csrf", admin.csrf()).formParam("name", "Dr Grace").formParam("email", "nope")
                .post("/console/prescribers"), 400);
        assertTrue(page.title().startsWith("Error: "));
        assertEquals("Invalid email", page.selectFirst("p.field-error#error-email").text());
        assertEquals("true", page.selectFirst("#email").attr("aria-invalid"));
        assertEquals("error-email", page.selectFirst("#email").attr("aria-describedby"));
        assertEquals("nope", page.selectFirst("#email").val());
        assertEquals("Dr Grace", page.selectFirst("#name").val());
        assertNull(page.selectFirst("#error-name"));
    }

    @Test
    void theFindFormLeadsToThePrescribersPageWithItsWeeklyHours() {
        assertSeeOther(as(ConsoleCalls.admin()).redirects().follow(false).get("/console/prescribers?prescriberId=%20" + ID + "%20"),
                "/console/prescribers/" + ID);
        Neighbours.gateway().verify(0, anyRequestedFor(anyUrl()));

        prescriberIs();
        availabilityAnswers(200, "{\"availability\":{\"prescriberId\":\"" + ID + "\",\"timezone\":\"Europe/Lisbon\",\"weekly\":["
                + "{\"weekday\":1,\"start\":\"09:00\",\"end\":\"12:00\"},{\"weekday\":7,\"start\":\"14:00\",\"end\":\"17:30\"}],\"slotMinutes\":30}}");
        Document page = page(as(ConsoleCalls.admin()).get("/console/prescribers/" + ID), 200);
        assertNull(page.selectFirst("#notice"));
        assertEquals("Europe/Lisbon", page.selectFirst("#hours-timezone").text());
        assertEquals("30", page.selectFirst("#hours-slot-minutes").text());
        Element wrap = page.selectFirst("div.table-wrap");
        assertEquals("0", wrap.attr("tabindex"));
        assertEquals("region", wrap.attr("role"));
        assertEquals("Weekly hours", wrap.attr("aria-label"));
        assertEquals(List.of(List.of("Monday", "09:00", "12:00"), List.of("Sunday", "14:00", "17:30")),
                page.select("table#availability tbody tr").stream().map(row -> row.select("td").stream().map(Element::text).toList()).toList());
        assertNull(page.selectFirst("form:not(.sign-out)"));
        Neighbours.gateway().verify(1, getRequestedFor(urlPathEqualTo("/ops/v1/prescribers/" + ID))
                .withHeader("Authorization", equalTo("Bearer " + ConsoleCalls.TOKEN)));
        Neighbours.gateway().verify(1, getRequestedFor(urlPathEqualTo("/ops/v1/prescribers/" + ID + "/availability"))
                .withHeader("Authorization", equalTo("Bearer " + ConsoleCalls.TOKEN)));
    }

    @Test
    void anUnknownPrescriberIsThe404Page() {
        Neighbours.gateway().stubFor(get(urlPathEqualTo("/ops/v1/prescribers/nope")).willReturn(aResponse().withStatus(404)
                .withHeader("Content-Type", "application/json").withBody("{\"error\":\"Prescriber not found\"}")));
        Document page = page(as(ConsoleCalls.admin()).get("/console/prescribers/nope"), 404);
        assertEquals("Prescriber not found", page.selectFirst("h1").text());
        assertEquals("/console/prescribers", page.selectFirst("main a[href=/console/prescribers]").attr("href"));
        Neighbours.gateway().verify(0, getRequestedFor(urlPathEqualTo("/ops/v1/prescribers/nope/availability")));
    }

    @Test
    void aFormWithoutTheSessionsTokenIsRefusedAndNothingIsAsked() {
        ConsoleCalls.TestSession admin = ConsoleCalls.admin();
        for (Response response : List.of(formAs(admin).formParam("name", "X").formParam("email", "x@example.test").post("/console/prescribers"),
                formAs(admin).formParam("csrf", "nope").formParam("name", "X").post("/console/prescribers"))) {
            assertEquals("This form has expired. Reload the page and try again.", page(response, 403).selectFirst("h1 + p").text());
        }
        Neighbours.gateway().verify(0, anyRequestedFor(anyUrl()));
    }

    @Test
    void aPrescriberOrSupportGetsTheForbiddenPageAndNothingIsAsked() {
        for (ConsoleCalls.TestSession session : List.of(ConsoleCalls.prescriber(), ConsoleCalls.support())) {
            for (Response response : List.of(as(session).get("/console/prescribers"), as(session).get("/console/prescribers?prescriberId=" + ID),
                    as(session).get("/console/prescribers/" + ID),
                    formAs(session).formParam("csrf", session.csrf()).formParam("name", "X").post("/console/prescribers"))) {
                Document page = page(response, 403);
                assertEquals("You do not have access to this page.", page.selectFirst("h1 + p").text());
                assertFalse(page.select("header nav a").stream().map(Element::text).toList().contains("Prescribers"));
            }
        }
        Neighbours.gateway().verify(0, anyRequestedFor(anyUrl()));
    }

    @Test
    void theGatewaysFailuresAreItsPages() {
        Neighbours.gateway().stubFor(get(urlPathEqualTo("/ops/v1/prescribers/" + ID)).willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));
        assertEquals("Sorry, the service is unavailable", page(as(ConsoleCalls.admin()).get("/console/prescribers/" + ID), 503).selectFirst("h1").text());

        prescriberIs();
        availabilityAnswers(500, "{}");
        assertEquals("Sorry, the service is unavailable", page(as(ConsoleCalls.admin()).get("/console/prescribers/" + ID), 503).selectFirst("h1").text());

        Neighbours.gateway().stubFor(post(urlPathEqualTo("/ops/v1/prescribers")).willReturn(aResponse().withStatus(403)
                .withHeader("Content-Type", "application/json").withBody("{\"error\":\"Forbidden\"}")));
        ConsoleCalls.TestSession admin = ConsoleCalls.admin();
        assertEquals("You do not have access to this page.", page(formAs(admin).formParam("csrf", admin.csrf()).formParam("name", "X")
                .formParam("email", "x@example.test").post("/console/prescribers"), 403).selectFirst("h1 + p").text());
    }
}
