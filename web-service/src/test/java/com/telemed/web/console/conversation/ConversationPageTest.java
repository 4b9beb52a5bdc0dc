package com.telemed.web.console.conversation;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.absent;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.telemed.web.PageCalls.json;
import static com.telemed.web.console.ConsoleCalls.as;
import static com.telemed.web.console.ConsoleCalls.page;
import static com.telemed.web.console.conversation.Conversations.FIRST;
import static com.telemed.web.console.conversation.Conversations.SECOND;
import static com.telemed.web.console.conversation.Conversations.conversation;
import static com.telemed.web.console.conversation.Conversations.listing;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.http.Fault;
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
import java.util.Map;
import org.awaitility.Awaitility;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The conversations page: its rows in the API's order, the unread filter and the cursor as passed to the
 * gateway, the nav's unread count, the table alone for the live refresh, and who may see it.
 */
@QuarkusTest
@WithTestResource(value = Neighbours.class, scope = TestResourceScope.GLOBAL)
class ConversationPageTest {

    static final String CURSOR = "eyJhdCI6IjIwMzAifQ";

    @BeforeEach
    void reset() {
        Neighbours.reset();
    }

    static void list(List<Map<String, Object>> conversations, String nextCursor) {
        Neighbours.gateway().stubFor(get(urlPathEqualTo("/ops/v1/conversations")).atPriority(5)
                .willReturn(okJson(json(listing(conversations, nextCursor)))));
    }

    static List<Map<String, Object>> two() {
        return List.of(conversation(FIRST, "Jo <b>Bloggs</b>", "2030-03-01T09:05:59.999Z", 2),
                conversation(SECOND, "Sam Smith", "2030-03-02T10:30:00Z", 0));
    }

    static List<String> cells(Element row) {
        return row.select("td").stream().map(Element::text).toList();
    }

    @Test
    void aPrescriberSeesTheThreadsInTheApisOrderWithTheUnreadCountInTheNav() {
        list(two(), CURSOR);
        Conversations.unreadThreads(3, null);
        Document page = page(as(ConsoleCalls.prescriber()).get("/console/conversations"), 200);
        assertEquals("Conversations", page.selectFirst("h1").text());
        List<Element> rows = page.select("table#conversations tbody tr");
        assertEquals(List.of(FIRST, SECOND), rows.stream().map(row -> row.attr("data-conversation-id")).toList());
        assertEquals(List.of("2", "0"), rows.stream().map(row -> row.attr("data-unread")).toList());
        assertEquals(List.of("Jo <b>Bloggs</b>", "2030-03-01 09:05", "2", "Open"), cells(rows.get(0)));
        assertEquals(List.of("Sam Smith", "2030-03-02 10:30", "0", "Open"), cells(rows.get(1)));
        assertEquals("/console/conversations/" + FIRST, rows.get(0).selectFirst("a").attr("href"));
        assertEquals("/console/conversations?after=" + CURSOR, page.selectFirst("a#next-page").attr("href"));
        assertEquals("Next page", page.selectFirst("a#next-page").text());
        assertNotNull(page.selectFirst("form[method=get][action=/console/conversations] input#unread[type=checkbox][name=unread][value=1]"));
        assertEquals("Unread only", page.selectFirst("label[for=unread]").text());

        assertEquals("15", page.selectFirst("body").attr("data-refresh-seconds"));
        Element live = page.selectFirst("#conversations-live");
        assertEquals("/console/conversations/table", live.attr("data-live-src"));
        assertEquals("(3 unread)", live.attr("data-nav-unread"));
        assertEquals(List.of("Queue", "Appointments", "Availability", "Conversations (3 unread)"), page.select("header nav a").stream().map(Element::text).toList());
        assertEquals("(3 unread)", page.selectFirst("header nav a[href=/console/conversations] span#nav-unread").text());

        Neighbours.gateway().verify(1, getRequestedFor(urlPathEqualTo("/ops/v1/conversations"))
                .withHeader("Authorization", equalTo("Bearer " + ConsoleCalls.TOKEN))
                .withQueryParam("unread", absent()).withQueryParam("limit", absent()).withQueryParam("after", absent()));
        Neighbours.gateway().verify(1, getRequestedFor(urlPathEqualTo("/ops/v1/conversations"))
                .withHeader("Authorization", equalTo("Bearer " + ConsoleCalls.TOKEN))
                .withQueryParam("unread", equalTo("true")).withQueryParam("limit", equalTo("100")).withQueryParam("after", absent()));
    }

    @Test
    void theUnreadFilterAndTheCursorArePassedAndAnEmptyListSaysSo() {
        list(List.of(), null);
        Document page = page(as(ConsoleCalls.support()).get("/console/conversations?unread=1&after=" + CURSOR), 200);
        assertEquals("No conversations.", page.selectFirst("#conversations-empty").text());
        assertNull(page.selectFirst("table#conversations"));
        assertNull(page.selectFirst("a#next-page"));
        assertNotNull(page.selectFirst("#unread[checked]"));
        assertEquals("/console/conversations/table?unread=1&after=" + CURSOR, page.selectFirst("#conversations-live").attr("data-live-src"));
        Neighbours.gateway().verify(1, getRequestedFor(urlPathEqualTo("/ops/v1/conversations"))
                .withQueryParam("unread", equalTo("true")).withQueryParam("after", equalTo(CURSOR)).withQueryParam("limit", absent()));
    }

    @Test
    void theNextPageKeepsTheUnreadFilter() {
        list(two(), CURSOR);
        Document page = page(as(ConsoleCalls.prescriber()).get("/console/conversations?unread=1"), 200);
        assertEquals("/console/conversations?unread=1&after=" + CURSOR, page.selectFirst("a#next-page").attr("href"));
    }

    @Test
    void theNavSaysOneHundredPlusWhenThereAreMoreAndNothingWithoutUnread() {
        list(two(), null);
        Conversations.unreadThreads(100, CURSOR);
        assertEquals("(100+ unread)", page(as(ConsoleCalls.prescriber()).get("/console/conversations"), 200).selectFirst("#nav-unread").text());
        Neighbours.reset();
        list(two(), null);
        Conversations.unreadThreads(100, null);
        assertEquals("(100 unread)", page(as(ConsoleCalls.prescriber()).get("/console/conversations"), 200).selectFirst("#nav-unread").text());
        Neighbours.reset();
        list(two(), null);
        Conversations.unreadThreads(0, null);
        Document page = page(as(ConsoleCalls.prescriber()).get("/console/conversations"), 200);
        assertEquals("", page.selectFirst("#nav-unread").text());
        assertEquals("Conversations", page.selectFirst("header nav a[href=/console/conversations]").text());
    }

    @Test
    void theNavCountOnOtherPagesAndACountTheGatewayDoesNotGiveIsLeftOut() {
        Neighbours.gateway().stubFor(get(urlPathEqualTo("/ops/v1/review/queue")).willReturn(okJson("{\"requests\":[]}")));
        Conversations.unreadThreads(2, null);
        assertEquals("(2 unread)", page(as(ConsoleCalls.support()).get("/console/queue"), 200).selectFirst("#nav-unread").text());
        Neighbours.reset();
        list(two(), null);
        Neighbours.gateway().stubFor(get(urlPathEqualTo("/ops/v1/conversations")).withQueryParam("limit", equalTo("100")).atPriority(1)
                .willReturn(aResponse().withStatus(403).withHeader("Content-Type", "application/json").withBody("{\"error\":\"Forbidden\"}")));
        Document page = page(as(ConsoleCalls.prescriber()).get("/console/conversations"), 200);
        assertEquals("", page.selectFirst("#nav-unread").text());
        assertEquals(2, page.select("table#conversations tbody tr").size());
    }

    @Test
    void messagingDownOpensOnlyTheCountsBreakerNotTheConsoles() {
        Neighbours.gateway().stubFor(get(urlPathEqualTo("/ops/v1/review/queue")).willReturn(okJson("{\"requests\":[]}")));
        Neighbours.gateway().stubFor(get(urlPathEqualTo("/ops/v1/conversations")).withQueryParam("limit", equalTo("100")).atPriority(1)
                .willReturn(aResponse().withStatus(503).withHeader("Content-Type", "application/json").withBody("{\"error\":\"Service Unavailable\"}")));
        for (int i = 0; i < 30; i++) {
            assertEquals("", page(as(ConsoleCalls.support()).get("/console/queue"), 200).selectFirst("#nav-unread").text());
        }
        // The count's breaker opened (it asks no more), the queue's calls all went through.
        Neighbours.gateway().verify(30, getRequestedFor(urlPathEqualTo("/ops/v1/review/queue")));
        int asked = Neighbours.gateway().findAll(getRequestedFor(urlPathEqualTo("/ops/v1/conversations"))).size();
        assertTrue(asked < 60, () -> "asked " + asked + " times");
        // Back: the count comes again once its breaker lets a call through.
        Conversations.unreadThreads(1, null);
        Awaitility.await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(250)).untilAsserted(() -> assertEquals("(1 unread)",
                page(as(ConsoleCalls.support()).get("/console/queue"), 200).selectFirst("#nav-unread").text()));
    }

    @Test
    void anAdministratorListsThreadsWithoutOpeningThem() {
        list(two(), null);
        Conversations.unreadThreads(0, null);
        Document page = page(as(ConsoleCalls.admin()).get("/console/conversations"), 200);
        assertEquals(2, page.select("table#conversations tbody tr").size());
        assertTrue(page.select("table#conversations a").isEmpty(), "administrators do not read threads");
        assertEquals(ConsoleCalls.ADMIN_NAV, page.select("header nav a").stream().map(Element::text).toList());
    }

    @Test
    void theTableAloneIsTheLiveRefreshsFragmentAndKeepsNoIdleSessionAlive() {
        list(two(), CURSOR);
        Conversations.unreadThreads(1, null);
        Instant now = Instant.now();
        TestSession session = ConsoleCalls.session(List.of("prescriber"), ConsoleCalls.PRESCRIBER_ID, now.minus(Duration.ofMinutes(20)),
                now.minus(Duration.ofMinutes(5)));
        Response answer = as(session).get("/console/conversations/table?unread=1");
        assertEquals(200, answer.statusCode());
        assertEquals(PageCalls.HTML, answer.contentType());
        PageCalls.assertHeaders(answer, PageCalls.CSP);
        assertNull(answer.header("Set-Cookie"), "a refresh is no use of the console");
        assertFalse(answer.asString().contains("<html"), "a fragment");
        Element live = Jsoup.parseBodyFragment(answer.asString()).selectFirst("body > div#conversations-live");
        assertEquals("/console/conversations/table?unread=1", live.attr("data-live-src"));
        assertEquals("(1 unread)", live.attr("data-nav-unread"));
        assertEquals(List.of(FIRST, SECOND), live.select("table#conversations tbody tr").stream().map(row -> row.attr("data-conversation-id")).toList());
        assertEquals("/console/conversations?unread=1&after=" + CURSOR, live.selectFirst("a#next-page").attr("href"));
        Neighbours.gateway().verify(1, getRequestedFor(urlPathEqualTo("/ops/v1/conversations"))
                .withQueryParam("unread", equalTo("true")).withQueryParam("limit", absent()));

        assertNotNull(as(session).get("/console/conversations").header("Set-Cookie"), "the page itself is a use");
    }

    @Test
    void theFragmentWithoutASessionLeadsToTheSignInAndNothingIsAsked() {
        Response answer = PageCalls.browser().get("/console/conversations/table");
        assertEquals(303, answer.statusCode());
        assertEquals("/console/sign-in", answer.header("Location"));
        Neighbours.gateway().verify(0, anyRequestedFor(anyUrl()));
    }

    @Test
    void aRefusedCursorIsThe400PageAndTheGatewaysAbsenceThe503Page() {
        Neighbours.gateway().stubFor(get(urlPathEqualTo("/ops/v1/conversations")).willReturn(aResponse().withStatus(400)
                .withHeader("Content-Type", "application/json")
                .withBody("{\"error\":[{\"code\":\"custom\",\"path\":[\"after\"],\"message\":\"Invalid cursor\"}]}")));
        page(as(ConsoleCalls.prescriber()).get("/console/conversations?after=nope"), 400);
        Neighbours.gateway().stubFor(get(urlPathEqualTo("/ops/v1/conversations")).willReturn(okJson("{\"conversations\": 7}")));
        page(as(ConsoleCalls.prescriber()).get("/console/conversations"), 503);
        Neighbours.gateway().stubFor(get(urlPathEqualTo("/ops/v1/conversations")).willReturn(okJson("{\"nextCursor\": null}")));
        page(as(ConsoleCalls.prescriber()).get("/console/conversations"), 503);
        Neighbours.gateway().stubFor(get(urlPathEqualTo("/ops/v1/conversations")).willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));
        assertEquals("Sorry, the service is unavailable", page(as(ConsoleCalls.prescriber()).get("/console/conversations"), 503)
                .selectFirst("h1").text());
    }

    @Test
    void aSessionTheGatewayNoLongerKnowsLeadsToTheSignIn() {
        Neighbours.gateway().stubFor(get(urlPathEqualTo("/ops/v1/conversations")).willReturn(aResponse().withStatus(401)
                .withHeader("Content-Type", "application/json").withBody("{\"error\":\"Invalid token\"}")));
        Response answer = as(ConsoleCalls.prescriber()).get("/console/conversations/table");
        assertEquals(303, answer.statusCode());
        assertEquals("/console/sign-in", answer.header("Location"));
        assertEquals("console_session=; Max-Age=0; Path=/console; HttpOnly; Secure; SameSite=Lax", answer.header("Set-Cookie"));
    }
}
