package com.telemed.billing.summary;

import static com.telemed.testkit.kafka.BillingEvents.approved;
import static com.telemed.testkit.kafka.BillingEvents.created;
import static com.telemed.testkit.kafka.BillingEvents.legacyApproved;
import static com.telemed.testkit.kafka.BillingEvents.statusChanged;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.telemed.billing.LedgerFixture;
import com.telemed.billing.ledger.Ledger;
import com.telemed.billing.rebuild.OwnersNeighbourResource;
import com.telemed.testkit.kafka.BillingEvents;
import com.telemed.testkit.quarkus.InfrastructureResource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.time.format.TextStyle;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /v1/billing} (partner-api.md, Billing) over a ledger written by the consumers' own
 * code ({@link Ledger#apply}, the transaction a consumed batch runs in): every rule of the
 * contract, answered field by field.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(OwnersNeighbourResource.class)
class BillingSummaryTest {

    @Inject
    Ledger ledger;

    @Inject
    ObjectMapper json;

    private static String partner() {
        return "partner-" + UUID.randomUUID();
    }

    private static String member() {
        return UUID.randomUUID().toString();
    }

    private static Instant at(String instant) {
        return Instant.parse(instant);
    }

    private void apply(BillingEvents.Envelope... envelopes) {
        LedgerFixture.apply(ledger, json, envelopes);
    }

    private static void settings(String partner, String body) {
        given().contentType("application/json").body(body).put("/ops/v1/partners/" + partner + "/billing").then().statusCode(200);
    }

    private static JsonPath summary(String partner, String period) {
        var call = given().header("X-Partner-Id", partner);
        if (period != null) {
            call = call.queryParam("period", period);
        }
        return call.get("/v1/billing").then().statusCode(200).extract().jsonPath();
    }

    private static Map<String, Object> billable(String memberId, String name, String email, String start, int day) {
        Map<String, Object> member = new LinkedHashMap<>();
        member.put("memberId", memberId);
        member.put("memberName", name);
        member.put("memberEmail", email);
        member.put("billingStartDate", start);
        member.put("billingAnniversaryDay", day);
        return member;
    }

    private static Map<String, Object> period(String start, String end, String label) {
        Map<String, Object> period = new LinkedHashMap<>();
        period.put("startDate", start);
        period.put("endDate", end);
        period.put("label", label);
        return period;
    }

    @Test
    void aPartnerWithoutEnabledBillingGetsTheContractsError() {
        String partner = partner();
        given().header("X-Partner-Id", partner).get("/v1/billing").then().statusCode(404)
                .body(equalTo("{\"error\":\"Billing not enabled for this partner\"}"));
        settings(partner, "{\"enabled\": false, \"cycle\": \"monthly\", \"ratePerMember\": 10}");
        given().header("X-Partner-Id", partner).queryParam("period", "2026-11").get("/v1/billing").then().statusCode(404)
                .body(equalTo("{\"error\":\"Billing not enabled for this partner\"}"));
        settings(partner, "{\"enabled\": true, \"cycle\": \"monthly\", \"ratePerMember\": 10}");
        assertEquals(0, summary(partner, "2026-11").getInt("uniqueMemberCount"));
    }

    @Test
    void aMonthlySummaryListsWhoWasBillingActiveInTheMonthOrIsNow() {
        String partner = partner();
        String other = partner();
        settings(partner, "{\"enabled\": true, \"cycle\": \"monthly\", \"ratePerMember\": 49.990}");
        settings(other, "{\"enabled\": true, \"cycle\": \"monthly\", \"ratePerMember\": 1}");
        String ada = member();
        String grace = member();
        String paused = member();
        String returning = member();
        String nameless = member();
        String blank = member();
        String later = member();
        String neverApproved = member();
        String othersMember = member();
        apply(
                // Approved in October, active since: every month from October on.
                created(partner, ada, "Ada", "Lovelace", "ada@example.com", at("2026-10-01T08:00:00Z")),
                approved(partner, ada, at("2026-10-05T10:00:00.250Z")),
                approved(partner, ada, at("2026-11-02T10:00:00Z")),
                // Approved (legacy) inside November.
                created(partner, grace, "Grace", "Hopper", "grace@example.com", at("2026-11-01T00:00:00Z")),
                legacyApproved(partner, grace, at("2026-11-20T23:59:59.999Z")),
                // Billable from September, paused on 3 October: September and October only.
                created(partner, paused, "Paul", "Paused", "paul@example.com", at("2026-09-01T00:00:00Z")),
                approved(partner, paused, at("2026-09-10T00:00:00Z")),
                statusChanged(partner, paused, "active", "paused", at("2026-10-03T00:00:00Z")),
                // Paused in August, active again since 25 November: active now, so every month from August.
                created(partner, returning, "Rita", "Return", "rita@example.com", at("2026-08-01T00:00:00Z")),
                approved(partner, returning, at("2026-08-01T12:00:00Z")),
                statusChanged(partner, returning, "active", "paused", at("2026-08-15T00:00:00Z")),
                statusChanged(partner, returning, "paused", "active", at("2026-11-25T00:00:00Z")),
                // Approved, member event not here (yet): Unknown, no email.
                approved(partner, nameless, at("2026-11-03T00:00:00Z")),
                // Blank names.
                created(partner, blank, " ", "", "", at("2026-11-01T00:00:00Z")),
                approved(partner, blank, at("2026-11-04T00:00:00Z")),
                // Approved in December: not in November.
                created(partner, later, "Lee", "Later", "lee@example.com", at("2026-11-01T00:00:00Z")),
                approved(partner, later, at("2026-12-01T00:00:00Z")),
                created(partner, neverApproved, "Nora", "None", "nora@example.com", at("2026-11-01T00:00:00Z")),
                created(other, othersMember, "Otto", "Other", "otto@example.com", at("2026-11-01T00:00:00Z")),
                approved(other, othersMember, at("2026-11-02T00:00:00Z")));

        JsonPath november = summary(partner, "2026-11");
        assertEquals(period("2026-11-01T00:00:00.000Z", "2026-11-30T23:59:59.999Z", "November 2026"), november.getMap("period"));
        assertEquals(List.of(
                billable(returning, "Rita Return", "rita@example.com", "2026-08-01T12:00:00.000Z", 1),
                billable(ada, "Ada Lovelace", "ada@example.com", "2026-10-05T10:00:00.250Z", 5),
                billable(nameless, "Unknown", "", "2026-11-03T00:00:00.000Z", 3),
                billable(blank, "Unknown", "", "2026-11-04T00:00:00.000Z", 4),
                billable(grace, "Grace Hopper", "grace@example.com", "2026-11-20T23:59:59.999Z", 20)), november.getList("billableMembers"));
        assertEquals(5, november.getInt("uniqueMemberCount"));
        assertEquals("49.99", november.getString("ratePerMember"));
        assertEquals("249.95", november.getString("totalAmount"));

        JsonPath october = summary(partner, "2026-10-31");
        assertEquals(period("2026-10-01T00:00:00.000Z", "2026-10-31T23:59:59.999Z", "October 2026"), october.getMap("period"));
        assertEquals(List.of(returning, paused, ada), october.getList("billableMembers.memberId"));
        assertEquals(List.of(returning, paused), summary(partner, "2026-09").getList("billableMembers.memberId"));
        assertEquals(List.of(returning), summary(partner, "2026-08").getList("billableMembers.memberId"));
        assertEquals(List.of(), summary(partner, "2026-07").getList("billableMembers.memberId"));
        assertEquals(List.of(returning, ada, nameless, blank, grace, later), summary(partner, "2026-12").getList("billableMembers.memberId"));
        // The other partner sees its own member only.
        assertEquals(List.of(othersMember), summary(other, "2026-11").getList("billableMembers.memberId"));
    }

    @Test
    void aMemberEventWrittenBeforeNamesRodeOnTheBusBlanksNothing() {
        String partner = partner();
        settings(partner, "{\"enabled\": true, \"cycle\": \"monthly\", \"ratePerMember\": 1}");
        String memberId = member();
        String older = "{\"id\":\"" + UUID.randomUUID() + "\",\"type\":\"member.updated\",\"partnerId\":\"" + partner
                + "\",\"occurredAt\":\"2026-11-20T00:00:00.000Z\",\"subject\":{\"memberId\":\"" + memberId + "\"},"
                + "\"data\":{\"memberId\":\"" + memberId + "\",\"changedFields\":[\"phone\"]},\"webhook\":null}";
        apply(created(partner, memberId, "Ada", "Lovelace", "ada@example.com", at("2026-11-01T00:00:00Z")),
                approved(partner, memberId, at("2026-11-02T00:00:00Z")),
                new BillingEvents.Envelope(UUID.randomUUID().toString(), "member.events", memberId, older));
        assertEquals("Ada Lovelace", summary(partner, "2026-11").getString("billableMembers[0].memberName"));
        assertEquals("ada@example.com", summary(partner, "2026-11").getString("billableMembers[0].memberEmail"));
    }

    @Test
    void amountsArePlainNumbers() {
        String partner = partner();
        settings(partner, "{\"enabled\": true, \"cycle\": \"monthly\", \"ratePerMember\": 100}");
        for (int i = 0; i < 3; i++) {
            apply(approved(partner, member(), at("2026-11-0" + (i + 1) + "T00:00:00Z")));
        }
        String body = given().header("X-Partner-Id", partner).queryParam("period", "2026-11").get("/v1/billing")
                .then().statusCode(200).extract().asString();
        assertEquals(true, body.contains("\"ratePerMember\":100,"), body);
        assertEquals(true, body.endsWith("\"uniqueMemberCount\":3,\"totalAmount\":300}"), body);
        String empty = partner();
        settings(empty, "{\"enabled\": true, \"cycle\": \"monthly\", \"ratePerMember\": 0.5}");
        String none = given().header("X-Partner-Id", empty).queryParam("period", "2026-11").get("/v1/billing")
                .then().statusCode(200).extract().asString();
        assertEquals("{\"period\":{\"startDate\":\"2026-11-01T00:00:00.000Z\",\"endDate\":\"2026-11-30T23:59:59.999Z\","
                + "\"label\":\"November 2026\"},\"ratePerMember\":0.5,\"billableMembers\":[],\"uniqueMemberCount\":0,\"totalAmount\":0}", none);
    }

    @Test
    void theThreePeriodFormsAndTheFallbackToToday() {
        String partner = partner();
        settings(partner, "{\"enabled\": true, \"cycle\": \"monthly\", \"ratePerMember\": 1}");
        Map<String, Object> november = period("2026-11-01T00:00:00.000Z", "2026-11-30T23:59:59.999Z", "November 2026");
        assertEquals(november, summary(partner, "2026-11").getMap("period"));
        assertEquals(november, summary(partner, "2026-11-30").getMap("period"));
        // ISO week 48 of 2026 starts on Monday 23 November.
        assertEquals(november, summary(partner, "2026-W48").getMap("period"));
        // ISO week 1 of 2026 starts on Monday 29 December 2025; week 53 of 2026 on 28 December 2026.
        assertEquals(period("2025-12-01T00:00:00.000Z", "2025-12-31T23:59:59.999Z", "December 2025"),
                summary(partner, "2026-W01").getMap("period"));
        assertEquals(period("2026-12-01T00:00:00.000Z", "2026-12-31T23:59:59.999Z", "December 2026"),
                summary(partner, "2026-W53").getMap("period"));
        assertEquals(period("2024-02-01T00:00:00.000Z", "2024-02-29T23:59:59.999Z", "February 2024"),
                summary(partner, "2024-02").getMap("period"));
        YearMonth now = YearMonth.now(ZoneOffset.UTC);
        Map<String, Object> today = period(now.atDay(1) + "T00:00:00.000Z", now.atEndOfMonth() + "T23:59:59.999Z",
                now.getMonth().getDisplayName(TextStyle.FULL, Locale.ENGLISH) + " " + now.getYear());
        for (String other : new String[] {null, "", "garbage", "2026-13", "2026-02-30", "2025-W53", "2026-11-5", "November"}) {
            assertEquals(today, summary(partner, other).getMap("period"), String.valueOf(other));
        }
    }

    @Test
    void aWeeklySummaryListsActiveMembersOnTheirAnniversaryAndPausedOnesForTheirActiveDays() {
        String partner = partner();
        settings(partner, "{\"enabled\": true, \"cycle\": \"weekly\", \"weekday\": 1, \"ratePerMember\": 12.5}");
        String seventeenth = member();
        String twentyThird = member();
        String pausedInside = member();
        String pausedBefore = member();
        String thirtyFirst = member();
        apply(
                created(partner, seventeenth, "Sam", "Seventeen", "sam@example.com", at("2026-10-01T00:00:00Z")),
                approved(partner, seventeenth, at("2026-10-17T09:00:00Z")),
                created(partner, twentyThird, "Tia", "Twenty", "tia@example.com", at("2026-10-01T00:00:00Z")),
                approved(partner, twentyThird, at("2026-10-23T09:00:00Z")),
                created(partner, pausedInside, "Pia", "Inside", "pia@example.com", at("2026-10-01T00:00:00Z")),
                approved(partner, pausedInside, at("2026-10-02T09:00:00Z")),
                statusChanged(partner, pausedInside, "active", "paused", at("2026-11-18T00:00:00Z")),
                created(partner, pausedBefore, "Pat", "Before", "pat@example.com", at("2026-10-01T00:00:00Z")),
                approved(partner, pausedBefore, at("2026-10-17T10:00:00Z")),
                statusChanged(partner, pausedBefore, "active", "cancelled", at("2026-11-01T00:00:00Z")),
                created(partner, thirtyFirst, "Tom", "Thirty", "tom@example.com", at("2026-10-01T00:00:00Z")),
                approved(partner, thirtyFirst, at("2026-10-31T09:00:00Z")));

        JsonPath week = summary(partner, "2026-11-18");
        assertEquals(period("2026-11-16T00:00:00.000Z", "2026-11-22T23:59:59.999Z", "Week of 2026-11-16"), week.getMap("period"));
        assertEquals(List.of(
                billable(pausedInside, "Pia Inside", "pia@example.com", "2026-10-02T09:00:00.000Z", 2),
                billable(seventeenth, "Sam Seventeen", "sam@example.com", "2026-10-17T09:00:00.000Z", 17)), week.getList("billableMembers"));
        assertEquals("25", week.getString("totalAmount"));
        // The 31st rolls to 30 November: the week of Monday 30 November charges it, and the 23rd's week the 23rd.
        assertEquals(List.of(thirtyFirst), summary(partner, "2026-12-06").getList("billableMembers.memberId"));
        assertEquals(period("2026-11-30T00:00:00.000Z", "2026-12-06T23:59:59.999Z", "Week of 2026-11-30"),
                summary(partner, "2026-12-06").getMap("period"));
        assertEquals(List.of(twentyThird), summary(partner, "2026-W48").getList("billableMembers.memberId"));
        // The week of 12 October: the 23rd and 31st start after it; the 17th's anniversary is in it; the later
        // cancelled member was active in it.
        assertEquals(List.of(pausedInside, seventeenth, pausedBefore), summary(partner, "2026-10-12").getList("billableMembers.memberId"));
    }

    @Test
    void aWeeklyCycleStartsOnTheConfiguredWeekdayAcrossAYearEnd() {
        String partner = partner();
        settings(partner, "{\"enabled\": true, \"cycle\": \"weekly\", \"weekday\": 7, \"ratePerMember\": 1}");
        // ISO week 1 of 2026 is Monday 29 December 2025: the Sunday week holding it starts on the 28th.
        assertEquals(period("2025-12-28T00:00:00.000Z", "2026-01-03T23:59:59.999Z", "Week of 2025-12-28"),
                summary(partner, "2026-W01").getMap("period"));
        assertEquals(period("2025-12-28T00:00:00.000Z", "2026-01-03T23:59:59.999Z", "Week of 2025-12-28"),
                summary(partner, "2026-01-03").getMap("period"));
        String member = member();
        apply(created(partner, member, "Jan", "Year", "jan@example.com", at("2025-12-01T00:00:00Z")),
                approved(partner, member, at("2025-12-02T00:00:00Z")));
        // Anniversary 2: 2 January 2026 is in that week.
        assertEquals(List.of(member), summary(partner, "2026-01-01").getList("billableMembers.memberId"));
        assertEquals(List.of(), summary(partner, "2026-01-04").getList("billableMembers.memberId"));
    }
}
