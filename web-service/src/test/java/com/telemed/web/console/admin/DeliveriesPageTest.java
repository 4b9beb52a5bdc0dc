package com.telemed.web.console.admin;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.absent;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlMatching;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
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
import static org.junit.jupiter.api.Assertions.assertNull;

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

/** The webhook deliveries pages: finding a partner's, the table newest first, the event filter, redelivering, who may use them. */
@QuarkusTest
@WithTestResource(value = Neighbours.class, scope = TestResourceScope.GLOBAL)
class DeliveriesPageTest {

    static final String PARTNER = PartnersPageTest.PARTNER;
    static final String LOG = "/ops/v1/partners/" + PARTNER + "/webhook/deliveries";
    static final String FAILED = "9c1d2e3f-4a5b-4c6d-8e7f-0a1b2c3d4e5f";
    static final String DELIVERED = "8b0c1d2e-3f4a-4b5c-9d6e-7f8a9b0c1d2e";

    @BeforeEach
    void reset() {
        Neighbours.reset();
    }

    static void deliveries() {
        Neighbours.gateway().stubFor(get(urlPathEqualTo(LOG)).willReturn(okJson("{\"deliveries\":["
                + "{\"id\":\"" + FAILED + "\",\"event\":\"request.<approved>\",\"status\":\"failed\",\"attempts\":["
                + "{\"at\":\"2030-03-01T10:00:00Z\",\"httpStatus\":500,\"error\":null,\"durationMs\":12},"
                + "{\"at\":\"2030-03-01T10:01:00Z\",\"httpStatus\":null,\"error\":\"Connection refused\",\"durationMs\":3}],"
                + "\"payload\":{\"event\":\"request.approved\",\"data\":{\"id\":\"r-1\"}},\"createdAt\":\"2030-03-01T10:00:00Z\"},"
                + "{\"id\":\"" + DELIVERED + "\",\"event\":\"request.created\",\"status\":\"delivered\",\"attempts\":["
                + "{\"at\":\"2030-03-01T09:00:00Z\",\"httpStatus\":200,\"error\":null,\"durationMs\":40}],"
                + "\"payload\":{},\"createdAt\":\"2030-03-01T09:00:00.900Z\"}]}")));
    }

    @Test
    void theNavsPageFindsAPartnersDeliveries() {
        Document page = page(as(ConsoleCalls.admin()).get("/console/deliveries"), 200);
        assertEquals("Webhook deliveries", page.selectFirst("h1").text());
        Element find = page.selectFirst("form[method=get][action=/console/deliveries]");
        assertEquals(List.of("partnerId", "event"), find.select("input").stream().map(field -> field.attr("name")).toList());
        assertNull(page.selectFirst("table#deliveries"));
        assertSeeOther(as(ConsoleCalls.admin()).get("/console/deliveries?partnerId=" + PARTNER + "&event="), "/console/partners/" + PARTNER + "/deliveries");
        assertSeeOther(as(ConsoleCalls.admin()).get("/console/deliveries?partnerId=" + PARTNER + "&event=request.created"),
                "/console/partners/" + PARTNER + "/deliveries?event=request.created");
        // Nothing but the nav's unread count (console.session.UnreadThreads) is asked for the find form and its 303s.
        Neighbours.gateway().verify(0, anyRequestedFor(urlMatching("(?!/ops/v1/conversations\\?).*")));
    }

    @Test
    void aPartnersDeliveriesNewestFirstEachWithItsRedeliverForm() {
        deliveries();
        Document page = page(as(ConsoleCalls.admin()).get("/console/partners/" + PARTNER + "/deliveries"), 200);
        List<Element> rows = page.select("table#deliveries tbody tr");
        assertEquals(List.of(FAILED, DELIVERED), rows.stream().map(row -> row.attr("data-delivery-id")).toList());
        assertEquals(List.of("request.<approved>", "failed", "2", "Connection refused", "2030-03-01 10:00"),
                rows.get(0).select("td").stream().limit(5).map(Element::text).toList());
        assertEquals(List.of("request.created", "delivered", "1", "HTTP 200", "2030-03-01 09:00"),
                rows.get(1).select("td").stream().limit(5).map(Element::text).toList());
        Element form = rows.get(0).selectFirst("form.redeliver");
        assertEquals("/console/partners/" + PARTNER + "/deliveries/" + FAILED + "/redeliver", form.attr("action"));
        assertEquals("Redeliver request.<approved> 2030-03-01 10:00", form.selectFirst("button").text());
        assertEquals("/console/partners/" + PARTNER + "/deliveries", page.selectFirst("form.filters").attr("action"));
        assertEquals("/console/partners/" + PARTNER, page.selectFirst("a#partner-link").attr("href"));
        assertNull(page.selectFirst("#partnerId"));
        assertNull(page.selectFirst("#notice"));
        Neighbours.gateway().verify(1, getRequestedFor(urlPathEqualTo(LOG)).withHeader("Authorization", equalTo("Bearer " + ConsoleCalls.TOKEN))
                .withQueryParam("event", absent()));
    }

    @Test
    void theEventFilterIsPassedAndNoDeliveriesIsSaid() {
        Neighbours.gateway().stubFor(get(urlPathEqualTo(LOG)).willReturn(okJson("{\"deliveries\":[]}")));
        Document page = page(as(ConsoleCalls.admin()).get("/console/partners/" + PARTNER + "/deliveries?event=request.created&done=redelivered"), 200);
        assertEquals("No deliveries.", page.selectFirst("#deliveries-empty").text());
        assertEquals("request.created", page.selectFirst("#event").val());
        assertEquals("Redelivered", page.selectFirst("p#notice[role=status]").text());
        Neighbours.gateway().verify(1, getRequestedFor(urlPathEqualTo(LOG)).withQueryParam("event", equalTo("request.created")));
    }

    @Test
    void redeliveringPostsAndLeadsBackWithTheNotice() {
        Neighbours.gateway().stubFor(post(urlPathEqualTo(LOG + "/" + FAILED + "/redeliver")).willReturn(aResponse().withStatus(202)
                .withHeader("Content-Type", "application/json").withBody("{\"delivery\":{\"id\":\"" + FAILED + "\"}}")));
        ConsoleCalls.TestSession admin = ConsoleCalls.admin();
        assertSeeOther(formAs(admin).formParam("csrf", admin.csrf()).formParam("event", "").post("/console/partners/" + PARTNER + "/deliveries/" + FAILED
                + "/redeliver"), "/console/partners/" + PARTNER + "/deliveries?done=redelivered");
        assertSeeOther(formAs(admin).formParam("csrf", admin.csrf()).formParam("event", "request.approved").post("/console/partners/" + PARTNER
                + "/deliveries/" + FAILED + "/redeliver"), "/console/partners/" + PARTNER + "/deliveries?event=request.approved&done=redelivered");
        Neighbours.gateway().verify(2, postRequestedFor(urlPathEqualTo(LOG + "/" + FAILED + "/redeliver"))
                .withHeader("Authorization", equalTo("Bearer " + ConsoleCalls.TOKEN)));
    }

    @Test
    void aRefusedRedeliveryIsThePageAgainWithItsText() {
        deliveries();
        Neighbours.gateway().stubFor(post(urlPathEqualTo(LOG + "/" + FAILED + "/redeliver")).willReturn(aResponse().withStatus(400)
                .withHeader("Content-Type", "application/json").withBody("{\"error\":\"Delivery is still being attempted\"}")));
        ConsoleCalls.TestSession admin = ConsoleCalls.admin();
        Document page = page(formAs(admin).formParam("csrf", admin.csrf()).post("/console/partners/" + PARTNER + "/deliveries/" + FAILED + "/redeliver"),
                400);
        assertEquals("Delivery is still being attempted", page.selectFirst("p#form-error[role=alert]").text());
        assertEquals(2, page.select("table#deliveries tbody tr").size());

        Neighbours.gateway().stubFor(post(urlPathEqualTo(LOG + "/nope/redeliver")).willReturn(aResponse().withStatus(404)
                .withHeader("Content-Type", "application/json").withBody("{\"error\":\"Delivery not found\"}")));
        assertEquals("Delivery not found", page(formAs(admin).formParam("csrf", admin.csrf())
                .post("/console/partners/" + PARTNER + "/deliveries/nope/redeliver"), 404).selectFirst("h1").text());
    }

    @Test
    void aFormWithoutTheSessionsTokenIsRefusedAndNothingIsAsked() {
        ConsoleCalls.TestSession admin = ConsoleCalls.admin();
        for (Response response : List.of(formAs(admin).post("/console/partners/" + PARTNER + "/deliveries/" + FAILED + "/redeliver"),
                formAs(admin).formParam("csrf", "nope").post("/console/partners/" + PARTNER + "/deliveries/" + FAILED + "/redeliver"))) {
            assertEquals("This form has expired. Reload the page and try again.", page(response, 403).selectFirst("h1 + p").text());
        }
        Neighbours.gateway().verify(0, anyRequestedFor(anyUrl()));
    }

    @Test
    void aPrescriberGetsTheForbiddenPageAndNothingIsAsked() {
        // Support may redeliver webhooks (people-and-pages.md, "Principals and roles"): its pages are below.
        for (ConsoleCalls.TestSession session : List.of(ConsoleCalls.prescriber())) {
            for (Response response : List.of(as(session).get("/console/deliveries"), as(session).get("/console/deliveries?partnerId=" + PARTNER),
                    as(session).get("/console/partners/" + PARTNER + "/deliveries"),
                    formAs(session).formParam("csrf", session.csrf()).post("/console/partners/" + PARTNER + "/deliveries/" + FAILED + "/redeliver"))) {
                assertEquals("You do not have access to this page.", page(response, 403).selectFirst("h1 + p").text());
            }
        }
        Neighbours.gateway().verify(0, anyRequestedFor(anyUrl()));
    }

    @Test
    void supportFindsAPartnersDeliveriesAndRedelivers() {
        Neighbours.gateway().stubFor(post(urlPathEqualTo(LOG + "/" + FAILED + "/redeliver")).willReturn(aResponse().withStatus(202)
                .withHeader("Content-Type", "application/json").withBody("{\"delivery\":{\"id\":\"" + FAILED + "\"}}")));
        ConsoleCalls.TestSession support = ConsoleCalls.support();
        Document page = page(as(support).get("/console/deliveries"), 200);
        assertEquals(List.of("Queue", "Conversations", "Webhook deliveries", "Failed transmissions"), page.select("header nav a").stream().map(Element::text).toList());
        assertSeeOther(formAs(support).formParam("csrf", support.csrf())
                        .post("/console/partners/" + PARTNER + "/deliveries/" + FAILED + "/redeliver"),
                "/console/partners/" + PARTNER + "/deliveries?done=redelivered");
    }

    @Test
    void anEventTheGatewayRefusesIsThe400Page() {
        Neighbours.gateway().stubFor(get(urlPathEqualTo(LOG)).willReturn(aResponse().withStatus(400).withHeader("Content-Type", "application/json")
                .withBody("{\"error\":[{\"code\":\"too_big\",\"path\":[\"event\"],\"message\":\"String must contain at most 100 character(s)\"}]}")));
        page(as(ConsoleCalls.admin()).get("/console/partners/" + PARTNER + "/deliveries?event=" + "x".repeat(101)), 400);
    }
}
