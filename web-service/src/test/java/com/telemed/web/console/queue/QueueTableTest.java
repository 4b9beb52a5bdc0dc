package com.telemed.web.console.queue;

import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.telemed.web.console.ConsoleCalls.as;
import static com.telemed.web.console.ConsoleCalls.page;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.telemed.web.Neighbours;
import com.telemed.web.PageCalls;
import com.telemed.web.console.ConsoleCalls;
import com.telemed.web.console.ConsoleCalls.TestSession;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The queue's live refresh: the page's region and refresh interval, and its table alone as a fragment. */
@QuarkusTest
@WithTestResource(value = Neighbours.class, scope = TestResourceScope.GLOBAL)
class QueueTableTest {

    @BeforeEach
    void reset() {
        Neighbours.reset();
    }

    static void unreadThreads(String body) {
        Neighbours.gateway().stubFor(get(urlPathEqualTo("/ops/v1/conversations")).willReturn(okJson(body)));
    }

    @Test
    void thePageMarksItsTableForTheRefreshWithItsFilters() {
        QueuePageTest.queue(QueuePageTest.twoRequests());
        Document page = page(as(ConsoleCalls.prescriber()).get("/console/queue?drugId=drug-a%20b&partnerId=partner-1&mine=1"), 200);
        assertEquals("15", page.selectFirst("body").attr("data-refresh-seconds"));
        Element live = page.selectFirst("main #queue-live");
        assertEquals("/console/queue/table?drugId=drug-a%20b&partnerId=partner-1&mine=1", live.attr("data-live-src"));
        assertEquals(2, live.select("table#queue tbody tr").size());
        assertEquals("/console/queue/table", page(as(ConsoleCalls.support()).get("/console/queue?mine=1"), 200)
                .selectFirst("#queue-live").attr("data-live-src"));
    }

    @Test
    void theTableAloneIsTheFragmentWithTheNavsUnreadTextAndKeepsNoIdleSessionAlive() {
        QueuePageTest.queue(QueuePageTest.twoRequests());
        unreadThreads("{\"conversations\":[{\"id\":\"c1\",\"unreadByPrescriber\":1},{\"id\":\"c2\",\"unreadByPrescriber\":4}],\"nextCursor\":null}");
        Instant now = Instant.now();
        TestSession session = ConsoleCalls.session(List.of("prescriber"), ConsoleCalls.PRESCRIBER_ID, now.minus(Duration.ofMinutes(20)),
                now.minus(Duration.ofMinutes(5)));
        Response answer = as(session).get("/console/queue/table?drugId=drug-atorvastatin&mine=1");
        assertEquals(200, answer.statusCode());
        assertEquals(PageCalls.HTML, answer.contentType());
        PageCalls.assertHeaders(answer, PageCalls.CSP);
        assertNull(answer.header("Set-Cookie"));
        assertFalse(answer.asString().contains("<html"), "a fragment");
        Element live = Jsoup.parseBodyFragment(answer.asString()).selectFirst("body > div#queue-live");
        assertEquals("(2 unread)", live.attr("data-nav-unread"));
        assertEquals("/console/queue/table?drugId=drug-atorvastatin&mine=1", live.attr("data-live-src"));
        assertEquals(List.of(QueuePageTest.FIRST, QueuePageTest.SECOND), live.select("tr[data-request-id]").eachAttr("data-request-id"));
        Element claim = live.selectFirst("form[action=/console/requests/" + QueuePageTest.FIRST + "/claim]");
        assertEquals(session.csrf(), claim.selectFirst("input[type=hidden][name=csrf]").val());
        Neighbours.gateway().verify(1, getRequestedFor(urlPathEqualTo("/ops/v1/review/queue"))
                .withQueryParam("drugId", equalTo("drug-atorvastatin")).withQueryParam("prescriberId", equalTo(ConsoleCalls.PRESCRIBER_ID)));
        Neighbours.gateway().verify(1, getRequestedFor(urlPathEqualTo("/ops/v1/conversations"))
                .withQueryParam("unread", equalTo("true")).withQueryParam("limit", equalTo("100")));
    }

    @Test
    void anEmptyQueuesFragmentSaysSo() {
        QueuePageTest.queue(List.of());
        Response answer = as(ConsoleCalls.support()).get("/console/queue/table");
        assertEquals(200, answer.statusCode());
        Element live = Jsoup.parseBodyFragment(answer.asString()).selectFirst("div#queue-live");
        assertEquals("Nothing is waiting for review.", live.selectFirst("#queue-empty").text());
        assertEquals("", live.attr("data-nav-unread"));
    }

    @Test
    void anAdministratorOnlyGetsTheForbiddenPageAndNothingIsAsked() {
        assertNotNull(page(as(ConsoleCalls.admin()).get("/console/queue/table"), 403).selectFirst("h1"));
        Response answer = PageCalls.browser().get("/console/queue/table");
        assertEquals(303, answer.statusCode());
        assertEquals("/console/sign-in", answer.header("Location"));
        Neighbours.gateway().verify(0, anyRequestedFor(anyUrl()));
    }
}
