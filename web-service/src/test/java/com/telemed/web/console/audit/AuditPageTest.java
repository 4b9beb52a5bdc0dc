package com.telemed.web.console.audit;

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
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.telemed.web.Neighbours;
import com.telemed.web.console.ConsoleCalls;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The audit log page: its table, its filters as passed to the gateway, the next page, and who may read it. */
@QuarkusTest
@WithTestResource(value = Neighbours.class, scope = TestResourceScope.GLOBAL)
class AuditPageTest {

    static final String CURSOR = "MjAzMC0wMy0wMVQxMDowMDowMC4wMDBafDAxMjM-_w";

    @BeforeEach
    void reset() {
        Neighbours.reset();
    }

    static Map<String, Object> entry(String id, String at, String type, String actorId, String name, String action, String targetType,
                                     String targetId, String partnerId) {
        Map<String, Object> actor = new HashMap<>();
        actor.put("type", type);
        actor.put("id", actorId);
        actor.put("name", name);
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("id", id);
        entry.put("at", at);
        entry.put("actor", actor);
        entry.put("action", action);
        entry.put("targetType", targetType);
        entry.put("targetId", targetId);
        entry.put("partnerId", partnerId);
        return entry;
    }

    static void audit(List<Map<String, Object>> entries, String nextCursor) {
        Map<String, Object> page = new HashMap<>();
        page.put("entries", entries);
        page.put("nextCursor", nextCursor);
        Neighbours.gateway().stubFor(get(urlPathEqualTo("/ops/v1/audit")).willReturn(okJson(json(page))));
    }

    @Test
    void anAdministratorReadsTheEntriesNewestFirstWithTheNextPage() {
        audit(List.of(
                entry("e-2", "2030-03-01T10:00:01.500Z", "person", ConsoleCalls.ACCOUNT_ID, "Dr <Ada>", "request.read", "request", "r-1", "partner-1"),
                entry("e-1", "2030-03-01T09:00:00Z", "operator_key", "service", "Operator key", "partner.create", "partner", "partner-1", "partner-1"),
                entry("e-0", "2030-03-01T08:00:00Z", "person", "gone-account", null, "session.create", "account", "gone-account", null)), CURSOR);
        Document page = page(as(ConsoleCalls.admin()).get("/console/audit?actor=" + ConsoleCalls.ACCOUNT_ID + "&action=request.read&targetId="), 200);
        assertEquals("Audit log", page.selectFirst("h1").text());
        List<Element> rows = page.select("table#audit tbody tr");
        assertEquals(List.of("e-2", "e-1", "e-0"), rows.stream().map(row -> row.attr("data-entry-id")).toList());
        assertEquals(List.of("2030-03-01 10:00:01", "person", "Dr <Ada>", "request.read", "request", "r-1", "partner-1"),
                rows.get(0).select("td").stream().map(Element::text).toList());
        assertEquals("Operator key", rows.get(1).select("td").get(2).text());
        assertEquals(List.of("2030-03-01 08:00:00", "person", "gone-account", "session.create", "account", "gone-account", ""),
                rows.get(2).select("td").stream().map(Element::text).toList());
        assertEquals("/console/audit?actor=" + ConsoleCalls.ACCOUNT_ID + "&action=request.read&after=" + CURSOR,
                page.selectFirst("a#next-page").attr("href"));
        assertEquals("Next page", page.selectFirst("a#next-page").text());
        assertEquals(ConsoleCalls.ACCOUNT_ID, page.selectFirst("#actor").val());
        assertEquals("request.read", page.selectFirst("#action").val());
        assertEquals(ConsoleCalls.ADMIN_NAV, page.select("header nav a").stream().map(Element::text).toList());
        Neighbours.gateway().verify(1, getRequestedFor(urlPathEqualTo("/ops/v1/audit"))
                .withHeader("Authorization", equalTo("Bearer " + ConsoleCalls.TOKEN))
                .withQueryParam("actor", equalTo(ConsoleCalls.ACCOUNT_ID)).withQueryParam("action", equalTo("request.read"))
                .withQueryParam("targetId", absent()).withQueryParam("after", absent()));
    }

    @Test
    void theNextPageAsksAfterTheCursorAndTheLastHasNoLink() {
        audit(List.of(entry("e-0", "2030-03-01T08:00:00Z", "pharmacy", "sandbox", "sandbox", "pharmacy.update", "order", "ord_1", null)), null);
        Document page = page(as(ConsoleCalls.admin()).get("/console/audit?after=" + CURSOR), 200);
        assertEquals(1, page.select("table#audit tbody tr").size());
        assertNull(page.selectFirst("a#next-page"));
        Neighbours.gateway().verify(1, getRequestedFor(urlPathEqualTo("/ops/v1/audit")).withQueryParam("after", equalTo(CURSOR)));
    }

    @Test
    void aCursorTheGatewayRefusesIsThe400Page() {
        Neighbours.gateway().stubFor(get(urlPathEqualTo("/ops/v1/audit")).willReturn(aResponse().withStatus(400)
                .withHeader("Content-Type", "application/json")
                .withBody("{\"error\":[{\"code\":\"custom\",\"path\":[\"after\"],\"message\":\"Invalid cursor\"}]}")));
        page(as(ConsoleCalls.admin()).get("/console/audit?after=nope"), 400);
    }

    @Test
    void aPrescriberOrSupportGetsTheForbiddenPageAndNothingIsAsked() {
        ConsoleCalls.TestSession prescriber = ConsoleCalls.prescriber();
        for (ConsoleCalls.TestSession session : List.of(prescriber, ConsoleCalls.support())) {
            Document page = page(as(session).get("/console/audit"), 403);
            assertEquals("You do not have access to this page.", page.selectFirst("h1 + p").text());
            assertEquals(session == prescriber ? List.of("Queue", "Appointments", "Availability", "Conversations")
                            : List.of("Queue", "Conversations", "Webhook deliveries", "Failed transmissions"),
                    page.select("header nav a").stream().map(Element::text).toList());
        }
        Neighbours.gateway().verify(0, anyRequestedFor(anyUrl()));
    }
}
