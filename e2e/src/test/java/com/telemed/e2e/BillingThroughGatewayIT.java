package com.telemed.e2e;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.telemed.testkit.e2e.RunningPlatform;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.time.format.TextStyle;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Billing as a partner and the console drive it, every service real: members created through the
 * partner API, their requests approved in the console (an item approval and a legacy request-level
 * one), one member paused, one paused and reactivated, one renamed after approval, one never
 * approved; the summaries of two periods read through the gateway field by field, fed only by
 * {@code care.events} and {@code member.events}. This month lists everyone billing-active in it;
 * next month only those active now (the paused member drops out). Then the operator's rebuild from
 * the owners' internal endpoints gives the same answers, and a weekly cycle reads the same ledger.
 *
 * <p>Time is the platform's own: everything happens now, so "two periods" are this month and the
 * next (what the ledger says of a month it has not reached yet), not a clock moved by the test.
 */
@ExtendWith(RunningPlatform.class)
class BillingThroughGatewayIT {

    private static final Duration FED = Duration.ofSeconds(30);

    private RunningPlatform.Handle platform;
    private String apiKey;
    private String partnerId;
    private String drugId;
    private String prescriberId;

    private RequestSpecification ops() {
        return given().baseUri(platform.gateway().toString()).header("x-ops-key", platform.opsKey()).contentType(ContentType.JSON);
    }

    private RequestSpecification partner() {
        return given().baseUri(platform.gateway().toString()).header("x-api-key", apiKey).contentType(ContentType.JSON);
    }

    private String member(String firstName, String lastName) {
        return partner().body("""
                        {"firstName": "%s", "lastName": "%s", "email": "%s@example.com", "dateOfBirth": "1980-01-01", "state": "VA",
                         "address": {"street1": "1 Main St", "city": "Arlington", "state": "VA", "zipCode": "22201"}}"""
                        .formatted(firstName, lastName, firstName.toLowerCase()))
                .post("/v1/members").then().statusCode(201).extract().path("member.id");
    }

    private static Map<String, Object> prescription() {
        return Map.of("quantity", 1, "daysSupply", 30, "directions", "One daily", "refills", 0, "dispenseAsWritten", false);
    }

    /** A request for the member, claimed and approved item by item; returns the approval's time. */
    private Instant approveItem(String memberId) {
        String requestId = partner().body(Map.of("memberId", memberId, "caseNotes", "billing e2e", "items", List.of(Map.of("drugId", drugId, "dosage", "1 mg"))))
                .post("/v1/requests").then().statusCode(201).extract().path("requestId");
        String itemId = partner().get("/v1/requests/" + requestId).then().statusCode(200).extract().path("lineItems[0].itemId");
        ops().body(Map.of("prescriberId", prescriberId)).post("/ops/v1/requests/" + requestId + "/claim").then().statusCode(200);
        return Instant.parse(ops().body(Map.of("prescriberId", prescriberId, "prescription", prescription()))
                .post("/ops/v1/requests/" + requestId + "/items/" + itemId + "/approve")
                .then().statusCode(200).extract().path("prescriptionRecord.issuedAt"));
    }

    /** A request approved at request level (the legacy single-drug decision, request.approved). */
    private Instant approveRequest(String memberId) {
        String requestId = partner().body(Map.of("memberId", memberId, "caseNotes", "billing e2e", "items", List.of(Map.of("drugId", drugId, "dosage", "1 mg"))))
                .post("/v1/requests").then().statusCode(201).extract().path("requestId");
        ops().body(Map.of("prescriberId", prescriberId)).post("/ops/v1/requests/" + requestId + "/claim").then().statusCode(200);
        return Instant.parse(ops().body(Map.of("prescriberId", prescriberId, "prescription", prescription()))
                .post("/ops/v1/requests/" + requestId + "/approve")
                .then().statusCode(200).body("request.status", equalTo("approved")).extract().path("prescriptionRecord.issuedAt"));
    }

    private void status(String memberId, String status) {
        partner().body(Map.of("status", status)).put("/v1/members/" + memberId).then().statusCode(200).body("member.status", equalTo(status));
    }

    private JsonPath summary(String period) {
        return given().baseUri(platform.gateway().toString()).header("x-api-key", apiKey).queryParam("period", period)
                .get("/v1/billing").then().statusCode(200).extract().jsonPath();
    }

    private static Map<String, Object> billable(String memberId, String name, String email, Instant start) {
        Map<String, Object> member = new LinkedHashMap<>();
        member.put("memberId", memberId);
        member.put("memberName", name);
        member.put("memberEmail", email);
        member.put("billingStartDate", start.toString().length() == 20 ? start.toString().replace("Z", ".000Z") : start.toString());
        member.put("billingAnniversaryDay", LocalDate.ofInstant(start, ZoneOffset.UTC).getDayOfMonth());
        return member;
    }

    private static Map<String, Object> period(YearMonth month) {
        Map<String, Object> period = new LinkedHashMap<>();
        period.put("startDate", month.atDay(1) + "T00:00:00.000Z");
        period.put("endDate", month.atEndOfMonth() + "T23:59:59.999Z");
        period.put("label", month.getMonth().getDisplayName(TextStyle.FULL, Locale.ENGLISH) + " " + month.getYear());
        return period;
    }

    @Test
    void membersApprovedPausedAndReactivatedAreBilledInTwoPeriods(RunningPlatform.Handle platform) {
        this.platform = platform;
        JsonPath created = ops().body(Map.of("name", "Billing E2E " + UUID.randomUUID())).post("/ops/v1/partners")
                .then().statusCode(201).extract().jsonPath();
        partnerId = created.getString("partner.id");
        apiKey = created.getString("apiKey");
        // Not enabled yet: the contract's error.
        given().baseUri(platform.gateway().toString()).header("x-api-key", apiKey).get("/v1/billing")
                .then().statusCode(404).body(equalTo("{\"error\":\"Billing not enabled for this partner\"}"));
        ops().body(Map.of("enabled", true, "cycle", "monthly", "ratePerMember", 25.5))
                .put("/ops/v1/partners/" + partnerId + "/billing").then().statusCode(200);
        drugId = "bill-e2e-" + UUID.randomUUID().toString().substring(0, 8);
        ops().body("""
                        {"name": "Billing E2E Drug", "classification": "non-controlled",
                         "skus": [{"label": "1 mg", "active": true}], "pharmacy": {"id": "sandbox", "method": "none"}}""")
                .put("/ops/v1/drugs/" + drugId).then().statusCode(200);
        prescriberId = ops().body(Map.of("name", "Dr Billing", "email", "billing." + UUID.randomUUID() + "@clinic.example"))
                .post("/ops/v1/prescribers").then().statusCode(201).extract().path("prescriber.id");

        String ada = member("Ada", "Lovelace");
        String bob = member("Bob", "Paused");
        String cy = member("Cy", "Return");
        String dee = member("Dee", "Never");
        String eve = member("Eve", "Legacy");
        Instant adaStart = approveItem(ada);
        Instant bobStart = approveItem(bob);
        Instant cyStart = approveItem(cy);
        Instant eveStart = approveRequest(eve);
        // A second approval does not move Ada's billing start.
        approveItem(ada);
        status(bob, "paused");
        status(cy, "paused");
        status(cy, "active");
        status(dee, "cancelled");
        partner().body(Map.of("firstName", "Augusta", "email", "augusta@example.com")).put("/v1/members/" + ada).then().statusCode(200);

        YearMonth thisMonth = YearMonth.now(ZoneOffset.UTC);
        List<Map<String, Object>> now = List.of(
                billable(ada, "Augusta Lovelace", "augusta@example.com", adaStart),
                billable(bob, "Bob Paused", "bob@example.com", bobStart),
                billable(cy, "Cy Return", "cy@example.com", cyStart),
                billable(eve, "Eve Legacy", "eve@example.com", eveStart));
        await().atMost(FED).pollInterval(Duration.ofMillis(250)).until(() -> summary(thisMonth.toString()).getList("billableMembers").equals(now));
        JsonPath current = summary(null);
        assertEquals(period(thisMonth), current.getMap("period"));
        assertEquals(now, current.getList("billableMembers"));
        assertEquals(4, current.getInt("uniqueMemberCount"));
        assertEquals("25.5", current.getString("ratePerMember"));
        assertEquals("102", current.getString("totalAmount"));

        // Next month: billing-active now only; Bob, paused, drops out. The month before: nobody had started.
        await().atMost(FED).pollInterval(Duration.ofMillis(250))
                .until(() -> summary(thisMonth.plusMonths(1).toString()).getInt("uniqueMemberCount") == 3);
        JsonPath next = summary(thisMonth.plusMonths(1).toString());
        assertEquals(period(thisMonth.plusMonths(1)), next.getMap("period"));
        assertEquals(List.of(now.get(0), now.get(2), now.get(3)), next.getList("billableMembers"));
        assertEquals("76.5", next.getString("totalAmount"));
        assertEquals(List.of(), summary(thisMonth.minusMonths(1).toString()).getList("billableMembers"));

        // The operator's rebuild from the owners gives the same answers.
        String before = rawSummary(thisMonth.toString());
        String nextBefore = rawSummary(thisMonth.plusMonths(1).toString());
        ops().post("/ops/v1/partners/" + partnerId + "/billing/rebuild").then().statusCode(200)
                .body(equalTo("{\"members\":5,\"billableMembers\":4}"));
        assertEquals(before, rawSummary(thisMonth.toString()));
        assertEquals(nextBefore, rawSummary(thisMonth.plusMonths(1).toString()));

        // A weekly cycle from today's weekday: this week started today, so everyone approved today is in
        // it (the active ones on their anniversary, today; Bob for the minutes he was active).
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        ops().body(Map.of("enabled", true, "cycle", "weekly", "weekday", today.getDayOfWeek().getValue(), "ratePerMember", 3))
                .put("/ops/v1/partners/" + partnerId + "/billing").then().statusCode(200);
        JsonPath week = summary(today.toString());
        Map<String, Object> weekPeriod = new LinkedHashMap<>();
        weekPeriod.put("startDate", today + "T00:00:00.000Z");
        weekPeriod.put("endDate", today.plusDays(6) + "T23:59:59.999Z");
        weekPeriod.put("label", "Week of " + today);
        assertEquals(weekPeriod, week.getMap("period"));
        assertEquals(now, week.getList("billableMembers"));
        assertEquals(12, week.getInt("totalAmount"));
        // Another partner's key sees none of it.
        JsonPath other = ops().body(Map.of("name", "Billing E2E Other " + UUID.randomUUID())).post("/ops/v1/partners")
                .then().statusCode(201).extract().jsonPath();
        ops().body(Map.of("enabled", true, "cycle", "monthly", "ratePerMember", 1))
                .put("/ops/v1/partners/" + other.getString("partner.id") + "/billing").then().statusCode(200);
        given().baseUri(platform.gateway().toString()).header("x-api-key", other.getString("apiKey")).get("/v1/billing")
                .then().statusCode(200).body("uniqueMemberCount", equalTo(0)).body("billableMembers", equalTo(new ArrayList<>()));
    }

    private String rawSummary(String period) {
        return given().baseUri(platform.gateway().toString()).header("x-api-key", apiKey).queryParam("period", period)
                .get("/v1/billing").then().statusCode(200).extract().asString();
    }
}
