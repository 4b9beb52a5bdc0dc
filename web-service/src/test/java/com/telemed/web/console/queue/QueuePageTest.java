package com.telemed.web.console.queue;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.absent;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.telemed.web.PageCalls.json;
import static com.telemed.web.console.ConsoleCalls.as;
import static com.telemed.web.console.ConsoleCalls.assertSeeOther;
import static com.telemed.web.console.ConsoleCalls.formAs;
import static com.telemed.web.console.ConsoleCalls.page;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.github.tomakehurst.wiremock.http.Fault;
import com.telemed.web.Neighbours;
import com.telemed.web.console.ConsoleCalls;
import com.telemed.web.console.ConsoleCalls.TestSession;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.util.List;
import java.util.Map;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The review queue page: its rows, its filters as passed to the gateway, claiming, and who may see it. */
@QuarkusTest
@WithTestResource(value = Neighbours.class, scope = TestResourceScope.GLOBAL)
class QueuePageTest {

    static final String FIRST = "0b1c2a38-0b7e-4d0b-9a43-7a3b2c1d0e01";
    static final String SECOND = "0b1c2a38-0b7e-4d0b-9a43-7a3b2c1d0e02";
    static final String OTHER_PRESCRIBER = "9b1c2a38-0b7e-4d0b-9a43-7a3b2c1d0e9f";

    @BeforeEach
    void reset() {
        Neighbours.reset();
    }

    static void queue(List<Map<String, Object>> requests) {
        Neighbours.gateway().stubFor(get(urlPathEqualTo("/ops/v1/review/queue")).willReturn(okJson(json(Map.of("requests", requests)))));
    }

    static List<Map<String, Object>> twoRequests() {
        return List.of(
                ConsoleCalls.reviewed(FIRST, "Jo <b>Bloggs</b>", null, "2030-03-01T09:05:59.999Z",
                        List.of(ConsoleCalls.item("i-1", "Atorvastatin", "pending"), ConsoleCalls.item("i-2", "Metformin", "call_requested"))),
                ConsoleCalls.reviewed(SECOND, "Sam Smith", OTHER_PRESCRIBER, "2030-03-01T10:30:00Z", List.of(ConsoleCalls.item("i-3", "Sertraline", "pending"))));
    }

    static List<String> cells(Element row) {
        return row.select("td").stream().map(Element::text).toList();
    }

    @Test
    void aPrescriberSeesTheQueueOldestFirstAndMayClaimWhatNobodyClaimed() {
        queue(twoRequests());
        Document page = page(as(ConsoleCalls.prescriber()).get("/console/queue"), 200);
        assertEquals("Queue", page.selectFirst("h1").text());
        List<Element> rows = page.select("table#queue tbody tr");
        assertEquals(List.of(FIRST, SECOND), rows.stream().map(row -> row.attr("data-request-id")).toList());
        assertEquals(List.of("2030-03-01 09:05", "partner-1", "Jo <b>Bloggs</b> (CA)", "Atorvastatin, Metformin", "pending", "-", "Open Claim"),
                cells(rows.get(0)));
        assertEquals(List.of("2030-03-01 10:30", "partner-1", "Sam Smith (CA)", "Sertraline", "pending", OTHER_PRESCRIBER, "Open"),
                cells(rows.get(1)));
        assertEquals("/console/requests/" + FIRST, rows.get(0).selectFirst("a").attr("href"));
        assertEquals("Open", rows.get(0).selectFirst("a").text());
        Element claim = rows.get(0).selectFirst("form");
        assertEquals("post", claim.attr("method"));
        assertEquals("/console/requests/" + FIRST + "/claim", claim.attr("action"));
        assertEquals("Claim", claim.selectFirst("button").text());
        assertNull(rows.get(1).selectFirst("form"), "claimed already");

        Element filters = page.selectFirst("form[method=get][action=/console/queue]");
        assertNotNull(filters.selectFirst("input#drugId[name=drugId]"));
        assertNotNull(filters.selectFirst("input#partnerId[name=partnerId]"));
        assertNotNull(filters.selectFirst("input#mine[type=checkbox][name=mine][value=1]"));
        assertEquals("Claimed by me", page.selectFirst("label[for=mine]").text());

        assertEquals(List.of("Queue", "Appointments", "Availability", "Conversations"), page.select("header nav a").stream().map(Element::text).toList());
        assertEquals("Dr Ada <Okafor>", page.selectFirst("header .account-name").text());
        assertEquals("Sign out", page.selectFirst("header form[action=/console/sign-out] button").text());
        Neighbours.gateway().verify(getRequestedFor(urlPathEqualTo("/ops/v1/review/queue"))
                .withHeader("Authorization", equalTo("Bearer " + ConsoleCalls.TOKEN))
                .withQueryParam("drugId", absent()).withQueryParam("partnerId", absent()).withQueryParam("prescriberId", absent()));
    }

    @Test
    void theFiltersArePassedAndClaimedByMeIsThePrescribersOwnId() {
        queue(List.of());
        Document page = page(as(ConsoleCalls.prescriber()).get("/console/queue?drugId=drug-atorvastatin&partnerId=partner-1&mine=1"), 200);
        assertEquals("Nothing is waiting for review.", page.selectFirst("main p").text());
        assertNull(page.selectFirst("table#queue"));
        assertEquals("drug-atorvastatin", page.selectFirst("#drugId").val());
        assertEquals("partner-1", page.selectFirst("#partnerId").val());
        assertNotNull(page.selectFirst("#mine[checked]"));
        Neighbours.gateway().verify(1, getRequestedFor(urlPathEqualTo("/ops/v1/review/queue"))
                .withQueryParam("drugId", equalTo("drug-atorvastatin")).withQueryParam("partnerId", equalTo("partner-1"))
                .withQueryParam("prescriberId", equalTo(ConsoleCalls.PRESCRIBER_ID)));
    }

    @Test
    void supportReadsTheQueueWithoutClaimingOrClaimedByMe() {
        queue(twoRequests());
        Document page = page(as(ConsoleCalls.support()).get("/console/queue?mine=1"), 200);
        assertEquals(2, page.select("table#queue tbody tr").size());
        assertNull(page.selectFirst("#mine"));
        assertNull(page.selectFirst("form[action$=/claim]"));
        Neighbours.gateway().verify(1, getRequestedFor(urlPathEqualTo("/ops/v1/review/queue")).withQueryParam("prescriberId", absent()));
    }

    @Test
    void anAdministratorOnlyGetsTheForbiddenPageAndNothingIsAsked() {
        Document page = page(as(ConsoleCalls.admin()).get("/console/queue"), 403);
        assertEquals("Forbidden", page.selectFirst("h1").text());
        assertEquals("You do not have access to this page.", page.selectFirst("h1 + p").text());
        assertEquals(ConsoleCalls.ADMIN_NAV, page.select("header nav a").stream().map(Element::text).toList());
        assertEquals("/console/audit", page.selectFirst("header nav a").attr("href"));
        Neighbours.gateway().verify(0, anyRequestedFor(anyUrl()));
    }

    @Test
    void claimingAsksTheGatewayAndLeadsToTheRequest() {
        Neighbours.gateway().stubFor(post(urlPathEqualTo("/ops/v1/requests/" + FIRST + "/claim")).willReturn(okJson("{\"request\":{}}")));
        TestSession session = ConsoleCalls.prescriber();
        assertSeeOther(formAs(session).formParam("csrf", session.csrf()).post("/console/requests/" + FIRST + "/claim"),
                "/console/requests/" + FIRST);
        Neighbours.gateway().verify(1, postRequestedFor(urlPathEqualTo("/ops/v1/requests/" + FIRST + "/claim"))
                .withHeader("Authorization", equalTo("Bearer " + ConsoleCalls.TOKEN)).withRequestBody(equalToJson("{}")));
    }

    @Test
    void aClaimWithoutItsTokenOrBySupportIsRefusedAndNothingIsAsked() {
        TestSession prescriber = ConsoleCalls.prescriber();
        Document expired = page(formAs(prescriber).formParam("csrf", "nope").post("/console/requests/" + FIRST + "/claim"), 403);
        assertEquals("This form has expired. Reload the page and try again.", expired.selectFirst("h1 + p").text());
        TestSession support = ConsoleCalls.support();
        Document forbidden = page(formAs(support).formParam("csrf", support.csrf()).post("/console/requests/" + FIRST + "/claim"), 403);
        assertEquals("You do not have access to this page.", forbidden.selectFirst("h1 + p").text());
        Neighbours.gateway().verify(0, anyRequestedFor(anyUrl()));
    }

    @Test
    void aSessionTheGatewayNoLongerKnowsLeadsToTheSignIn() {
        Neighbours.gateway().stubFor(get(urlPathEqualTo("/ops/v1/review/queue")).willReturn(aResponse().withStatus(401)
                .withHeader("Content-Type", "application/json").withBody("{\"error\":\"Invalid token\"}")));
        Response answer = as(ConsoleCalls.prescriber()).get("/console/queue");
        assertSeeOther(answer, "/console/sign-in");
        assertEquals("console_session=; Max-Age=0; Path=/console; HttpOnly; Secure; SameSite=Lax", answer.header("Set-Cookie"));
    }

    @Test
    void aRefusalOfTheGatewayIsTheForbiddenPageAndItsAbsenceThe503Page() {
        Neighbours.gateway().stubFor(get(urlPathEqualTo("/ops/v1/review/queue")).willReturn(aResponse().withStatus(403)
                .withHeader("Content-Type", "application/json").withBody("{\"error\":\"Forbidden\"}")));
        assertEquals("You do not have access to this page.", page(as(ConsoleCalls.prescriber()).get("/console/queue"), 403)
                .selectFirst("h1 + p").text());
        Neighbours.gateway().stubFor(get(urlPathEqualTo("/ops/v1/review/queue")).willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));
        assertEquals("Sorry, the service is unavailable", page(as(ConsoleCalls.prescriber()).get("/console/queue"), 503).selectFirst("h1").text());
        Neighbours.gateway().stubFor(get(urlPathEqualTo("/ops/v1/review/queue")).willReturn(okJson("{\"requests\": 7}")));
        page(as(ConsoleCalls.prescriber()).get("/console/queue"), 503);
    }
}
