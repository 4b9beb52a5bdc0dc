package com.telemed.web.console.operations;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
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

/** The failed transmissions page: the items newest first, resending one (its outcome as the notice), refusals, who may use it. */
@QuarkusTest
@WithTestResource(value = Neighbours.class, scope = TestResourceScope.GLOBAL)
class TransmissionsPageTest {

    static final String LIST = "/ops/v1/pharmacy/failed-transmissions";
    static final String REQUEST = "0b1c2a38-0b7e-4d0b-9a43-7a3b2c1d0e01";
    static final String ITEM = "5a1c2a38-0b7e-4d0b-9a43-7a3b2c1d0e01";
    static final String OTHER_REQUEST = "0b1c2a38-0b7e-4d0b-9a43-7a3b2c1d0e02";
    static final String OTHER_ITEM = "5a1c2a38-0b7e-4d0b-9a43-7a3b2c1d0e02";
    static final String SEND = "/ops/v1/requests/" + REQUEST + "/items/" + ITEM + "/send-to-pharmacy";
    static final String RESEND = "/console/transmissions/" + REQUEST + "/" + ITEM + "/resend";

    @BeforeEach
    void reset() {
        Neighbours.reset();
    }

    static void failed() {
        Neighbours.gateway().stubFor(get(urlPathEqualTo(LIST)).willReturn(okJson("{\"items\":["
                + "{\"requestId\":\"" + REQUEST + "\",\"itemId\":\"" + ITEM + "\",\"partnerId\":\"partner-1\","
                + "\"error\":\"Fulfillment held: pharmacy_rejected: <Out of stock>\",\"failedAt\":\"2030-03-01T10:00:59.900Z\"},"
                + "{\"requestId\":\"" + OTHER_REQUEST + "\",\"itemId\":\"" + OTHER_ITEM + "\",\"partnerId\":\"partner-2\","
                + "\"error\":\"Fulfillment held: pharmacy_unavailable: timed out\",\"failedAt\":\"2030-03-01T09:00:00Z\"}]}")));
    }

    static void sent(String body) {
        Neighbours.gateway().stubFor(post(urlPathEqualTo(SEND)).willReturn(okJson(body)));
    }

    @Test
    void theItemsNewestFirstEachWithItsResendForm() {
        failed();
        Document page = page(as(ConsoleCalls.admin()).get("/console/transmissions"), 200);
        assertEquals("Failed transmissions", page.selectFirst("h1").text());
        Element region = page.selectFirst("div.table-wrap[tabindex=0][role=region][aria-label=Failed transmissions]");
        List<Element> rows = region.select("table#transmissions tbody tr");
        assertEquals(List.of(REQUEST, OTHER_REQUEST), rows.stream().map(row -> row.attr("data-request-id")).toList());
        assertEquals(List.of(ITEM, OTHER_ITEM), rows.stream().map(row -> row.attr("data-item-id")).toList());
        assertEquals(List.of("2030-03-01 10:00", REQUEST, ITEM, "partner-1", "Fulfillment held: pharmacy_rejected: <Out of stock>", "Resend item " + ITEM),
                rows.get(0).select("td").stream().map(Element::text).toList());
        assertEquals("/console/requests/" + REQUEST, rows.get(0).selectFirst("a").attr("href"));
        Element resend = rows.get(0).selectFirst("form[method=post]");
        assertEquals(RESEND, resend.attr("action"));
        assertEquals(List.of("csrf"), resend.select("input").stream().map(field -> field.attr("name")).toList());
        assertEquals("Resend item " + ITEM, resend.selectFirst("button").text());
        assertNull(page.selectFirst("#notice"));
        Neighbours.gateway().verify(1, getRequestedFor(urlPathEqualTo(LIST)).withQueryParam("limit", equalTo("100"))
                .withHeader("Authorization", equalTo("Bearer " + ConsoleCalls.TOKEN)));
    }

    @Test
    void noneIsSaidSo() {
        Neighbours.gateway().stubFor(get(urlPathEqualTo(LIST)).willReturn(okJson("{\"items\":[]}")));
        Document page = page(as(ConsoleCalls.support()).get("/console/transmissions"), 200);
        assertEquals("No failed transmissions.", page.selectFirst("#transmissions-empty").text());
        assertNull(page.selectFirst("table#transmissions"));
        assertEquals(List.of("Queue", "Conversations", "Webhook deliveries", "Failed transmissions"),
                page.select("header nav a").stream().map(Element::text).toList());
    }

    @Test
    void resendingPostsAndLeadsBackWithTheOutcome() {
        sent("{\"success\":true,\"method\":\"api\",\"warnings\":[]}");
        ConsoleCalls.TestSession admin = ConsoleCalls.admin();
        assertSeeOther(formAs(admin).formParam("csrf", admin.csrf()).post(RESEND), "/console/transmissions?done=sent&method=api");
        Neighbours.gateway().verify(1, postRequestedFor(urlPathEqualTo(SEND)).withHeader("Authorization", equalTo("Bearer " + ConsoleCalls.TOKEN)));
        assertEquals("", Neighbours.gateway().findAll(postRequestedFor(urlPathEqualTo(SEND))).get(0).getBodyAsString());

        sent("{\"success\":false,\"method\":\"api\",\"warnings\":[\"Fulfillment held: pharmacy_rejected: <Out of stock>\"],"
                + "\"error\":\"Fulfillment held: pharmacy_rejected: <Out of stock>\"}");
        ConsoleCalls.TestSession support = ConsoleCalls.support();
        assertSeeOther(formAs(support).formParam("csrf", support.csrf()).post(RESEND), "/console/transmissions?done=not-sent&reason=pharmacy_rejected");

        sent("{\"success\":false,\"method\":\"Not A Word\",\"warnings\":[],\"error\":\"Something else\"}");
        assertSeeOther(formAs(support).formParam("csrf", support.csrf()).post(RESEND), "/console/transmissions?done=not-sent");
        sent("{\"success\":true,\"method\":\"Not A Word\",\"warnings\":[]}");
        assertSeeOther(formAs(support).formParam("csrf", support.csrf()).post(RESEND), "/console/transmissions?done=sent");

        failed();
        assertEquals("Sent to the pharmacy (api)", page(as(admin).get("/console/transmissions?done=sent&method=api"), 200)
                .selectFirst("p#notice[role=status]").text());
        assertEquals("Not sent: pharmacy_rejected", page(as(admin).get("/console/transmissions?done=not-sent&reason=pharmacy_rejected"), 200)
                .selectFirst("p#notice[role=status]").text());
        assertEquals("Not sent", page(as(admin).get("/console/transmissions?done=not-sent&reason=%3Cb%3E"), 200)
                .selectFirst("p#notice[role=status]").text());
        assertNull(page(as(admin).get("/console/transmissions?done=other"), 200).selectFirst("#notice"));
    }

    @Test
    void aRefusedResendIsThePageAgainWithItsTextAndAnUnknownItemThe404Page() {
        failed();
        Neighbours.gateway().stubFor(post(urlPathEqualTo(SEND)).willReturn(aResponse().withStatus(400)
                .withHeader("Content-Type", "application/json").withBody("{\"error\":\"This item has already been sent to pharmacy\"}")));
        ConsoleCalls.TestSession admin = ConsoleCalls.admin();
        Document page = page(formAs(admin).formParam("csrf", admin.csrf()).post(RESEND), 400);
        assertEquals("This item has already been sent to pharmacy", page.selectFirst("p#form-error[role=alert]").text());
        assertTrue(page.title().startsWith("Error: "));
        assertEquals(2, page.select("table#transmissions tbody tr").size());

        Neighbours.gateway().stubFor(post(urlPathEqualTo(SEND)).willReturn(aResponse().withStatus(404)
                .withHeader("Content-Type", "application/json").withBody("{\"error\":\"Line item not found\"}")));
        Document missing = page(formAs(admin).formParam("csrf", admin.csrf()).post(RESEND), 404);
        assertEquals("Line item not found", missing.selectFirst("h1").text());
        assertEquals("/console/transmissions", missing.selectFirst("main a[href=/console/transmissions]").attr("href"));
    }

    @Test
    void aFormWithoutTheSessionsTokenIsRefusedAndNothingIsAsked() {
        ConsoleCalls.TestSession admin = ConsoleCalls.admin();
        for (Response response : List.of(formAs(admin).post(RESEND), formAs(admin).formParam("csrf", "nope").post(RESEND))) {
            assertEquals("This form has expired. Reload the page and try again.", page(response, 403).selectFirst("h1 + p").text());
        }
        Neighbours.gateway().verify(0, anyRequestedFor(anyUrl()));
    }

    @Test
    void aPrescriberGetsTheForbiddenPageAndNothingIsAsked() {
        ConsoleCalls.TestSession prescriber = ConsoleCalls.prescriber();
        for (Response response : List.of(as(prescriber).get("/console/transmissions"),
                formAs(prescriber).formParam("csrf", prescriber.csrf()).post(RESEND))) {
            Document page = page(response, 403);
            assertEquals("You do not have access to this page.", page.selectFirst("h1 + p").text());
        }
        Neighbours.gateway().verify(0, anyRequestedFor(anyUrl()));
    }

    @Test
    void theGatewaysRefusalsAndFailuresAreItsPages() {
        Neighbours.gateway().stubFor(get(urlPathEqualTo(LIST)).willReturn(aResponse().withStatus(401)
                .withHeader("Content-Type", "application/json").withBody("{\"error\":\"Invalid token\"}")));
        Response signedOut = as(ConsoleCalls.support()).redirects().follow(false).get("/console/transmissions");
        assertSeeOther(signedOut, "/console/sign-in");
        assertTrue(signedOut.header("Set-Cookie").contains("Max-Age=0"));

        Neighbours.gateway().stubFor(get(urlPathEqualTo(LIST)).willReturn(aResponse().withStatus(403)
                .withHeader("Content-Type", "application/json").withBody("{\"error\":\"Forbidden\"}")));
        assertEquals("You do not have access to this page.", page(as(ConsoleCalls.support()).get("/console/transmissions"), 403)
                .selectFirst("h1 + p").text());

        Neighbours.gateway().stubFor(get(urlPathEqualTo(LIST)).willReturn(okJson("{\"other\":[]}")));
        assertEquals("Sorry, the service is unavailable", page(as(ConsoleCalls.support()).get("/console/transmissions"), 503).selectFirst("h1").text());

        Neighbours.gateway().stubFor(get(urlPathEqualTo(LIST)).willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));
        assertEquals("Sorry, the service is unavailable", page(as(ConsoleCalls.support()).get("/console/transmissions"), 503).selectFirst("h1").text());

        sent("{\"method\":\"api\"}");
        ConsoleCalls.TestSession admin = ConsoleCalls.admin();
        assertEquals("Sorry, the service is unavailable", page(formAs(admin).formParam("csrf", admin.csrf()).post(RESEND), 503).selectFirst("h1").text());
    }
}
