package com.telemed.requests.request;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.requests.FakeNeighbours;
import com.telemed.requests.FakeNeighboursResource;
import com.telemed.testkit.quarkus.InfrastructureResource;
import com.telemed.testkit.quarkus.ServiceDatabase;
import com.telemed.testkit.time.Milliseconds;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code GET /internal/requests/first-approvals}: billing-service's rebuild reads when each member became billable. */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(FakeNeighboursResource.class)
class FirstApprovalsTest {

    private static final String PATH = "/internal/requests/first-approvals";

    @Inject
    FakeNeighbours neighbours;

    String partner;
    String drugId;
    String prescriberId;

    @BeforeEach
    void setUp() {
        neighbours.reset();
        partner = RequestFixtures.newPartner();
        drugId = RequestFixtures.newDrugId();
        neighbours.drug(drugId, "Semaglutide", List.of("0.25mg"), partner);
        prescriberId = given().contentType("application/json")
                .body(Map.of("name", "Dr Lin", "email", "lin+" + UUID.randomUUID() + "@example.com"))
                .post("/ops/v1/prescribers").then().statusCode(201).extract().path("prescriber.id");
    }

    private String member(String firstName) {
        return neighbours.seedMember(partner, firstName, "Member", firstName.toLowerCase() + "+" + UUID.randomUUID() + "@example.com");
    }

    private String itemOf(String requestId) {
        return RequestFixtures.get(partner, requestId).then().statusCode(200).extract().path("lineItems[0].itemId");
    }

    private Map<String, Object> prescription() {
        Map<String, Object> prescription = new LinkedHashMap<>();
        prescription.put("skuId", FakeNeighbours.skuId(drugId, 0));
        prescription.put("quantity", 4);
        prescription.put("daysSupply", 30);
        prescription.put("directions", "Inject weekly");
        prescription.put("refills", 0);
        prescription.put("dispenseAsWritten", false);
        return prescription;
    }

    /** Approves the request's item in the console (an item approval); the approval's time as its history shows it. */
    private String approveItem(String requestId) {
        given().contentType("application/json").body(Map.of("prescriberId", prescriberId, "prescription", prescription()))
                .post("/ops/v1/requests/" + requestId + "/items/" + itemOf(requestId) + "/approve").then().statusCode(200);
        return approvedAt(requestId);
    }

    /** A legacy request-level approval of a consultation request (no item: the drug chosen now). */
    private String approveRequest(String requestId) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("prescriberId", prescriberId);
        body.put("drugId", drugId);
        body.put("prescription", prescription());
        given().contentType("application/json").body(body).post("/ops/v1/requests/" + requestId + "/approve")
                .then().statusCode(200).body("request.storedStatus", equalTo("approved"));
        return approvedAt(requestId);
    }

    private void denyItem(String requestId) {
        given().contentType("application/json").body(Map.of("prescriberId", prescriberId, "reason", "not suitable"))
                .post("/ops/v1/requests/" + requestId + "/items/" + itemOf(requestId) + "/deny").then().statusCode(200);
    }

    private String approvedAt(String requestId) {
        String at = RequestFixtures.get(partner, requestId).then().statusCode(200)
                .extract().path("history.find { it.action == 'approved' }.timestamp");
        assertTrue(at.matches(RequestFixtures.TIMESTAMP), at);
        Milliseconds.awaitNext();
        return at;
    }

    private static Response firstApprovals(Map<String, ?> query) {
        return given().queryParams(query).when().get(PATH);
    }

    private static Map<String, Object> page(Map<String, ?> query) {
        return firstApprovals(query).then().statusCode(200).contentType("application/json").extract().as(Map.class);
    }

    private static Map<String, Object> approval(String memberId, String firstApprovedAt) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("memberId", memberId);
        entry.put("firstApprovedAt", firstApprovedAt);
        return entry;
    }

    private static Map<String, Object> answer(List<Map<String, Object>> members, String next) {
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("members", members);
        answer.put("next", next);
        return answer;
    }

    /** PostgreSQL orders uuids by their bytes, which is the order of their lowercase text. */
    private static List<Map<String, Object>> byMember(List<Map<String, Object>> entries) {
        List<Map<String, Object>> sorted = new ArrayList<>(entries);
        sorted.sort((a, b) -> ((String) a.get("memberId")).compareTo((String) b.get("memberId")));
        return sorted;
    }

    @Test
    void eachApprovedMembersEarliestApprovalItemOrRequestLevelDeniedOnlyMembersAbsent() {
        // Two requests, the later one approved first: the earlier approval counts, not the older request.
        String twice = member("Twice");
        String older = RequestFixtures.created(partner, RequestFixtures.prescription(twice, drugId));
        String newer = RequestFixtures.created(partner, RequestFixtures.prescription(twice, drugId));
        String firstOfTwice = approveItem(newer);
        String secondOfTwice = approveItem(older);
        assertTrue(firstOfTwice.compareTo(secondOfTwice) < 0, firstOfTwice + " " + secondOfTwice);

        // A legacy request-level approval (a consultation request approved as a whole).
        String legacy = member("Legacy");
        String legacyAt = approveRequest(RequestFixtures.created(partner, RequestFixtures.consultation(legacy)));

        // Denied and pending only, and no request at all: never billable, not listed.
        String denied = member("Denied");
        denyItem(RequestFixtures.created(partner, RequestFixtures.prescription(denied, drugId)));
        RequestFixtures.created(partner, RequestFixtures.prescription(denied, drugId));
        member("Idle");

        // A member with a denial, then an approval: the approval's time.
        String deniedThenApproved = member("Late");
        denyItem(RequestFixtures.created(partner, RequestFixtures.prescription(deniedThenApproved, drugId)));
        String lateAt = approveItem(RequestFixtures.created(partner, RequestFixtures.prescription(deniedThenApproved, drugId)));

        List<Map<String, Object>> expected = byMember(List.of(approval(twice, firstOfTwice), approval(legacy, legacyAt),
                approval(deniedThenApproved, lateAt)));
        assertEquals(answer(expected, null), page(Map.of("partnerId", partner)));
        // Exactly these keys, in this order.
        String body = firstApprovals(Map.of("partnerId", partner, "limit", 1)).then().statusCode(200).extract().asString();
        assertEquals("{\"members\":[{\"memberId\":\"" + expected.get(0).get("memberId") + "\",\"firstApprovedAt\":\""
                + expected.get(0).get("firstApprovedAt") + "\"}],\"next\":\"" + expected.get(0).get("memberId") + "\"}", body);
    }

    private static OffsetDateTime utc(Instant at) {
        return at.atOffset(ZoneOffset.UTC);
    }

    /** The member approved at {@code at}, straight into the tables: one approved request with its history. */
    private void approvedDirectly(String partnerId, String memberId, Instant at) {
        UUID requestId = UUID.randomUUID();
        ServiceDatabase.update("INSERT INTO requests (id, partner_id, member_id, status, case_notes, created_at, updated_at)"
                + " VALUES (?, ?, ?, 'approved', 'notes', ?, ?)", requestId, partnerId, UUID.fromString(memberId),
                utc(at.minusSeconds(60)), utc(at));
        ServiceDatabase.update("INSERT INTO history_entries (request_id, action, by_actor, at) VALUES (?, 'created', 'api', ?)",
                requestId, utc(at.minusSeconds(60)));
        ServiceDatabase.update("INSERT INTO history_entries (request_id, action, by_actor, at) VALUES (?, 'approved', ?, ?)",
                requestId, prescriberId, utc(at));
    }

    @Test
    void pagesByMemberIdAndSeesOnlyThePartnersRequests() {
        Instant base = Instant.parse("2026-11-21T09:30:00.000Z");
        List<Map<String, Object>> expected = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            String memberId = UUID.randomUUID().toString();
            approvedDirectly(partner, memberId, base.plusSeconds(i));
            expected.add(approval(memberId, "2026-11-21T09:30:0" + i + ".000Z"));
        }
        expected = byMember(expected);
        // Another partner: its own members, and one of this partner's member ids approved earlier there.
        String other = RequestFixtures.newPartner();
        String theirs = UUID.randomUUID().toString();
        approvedDirectly(other, theirs, base.minusSeconds(3600));
        approvedDirectly(other, (String) expected.get(2).get("memberId"), base.minusSeconds(7200));

        Map<String, Object> first = page(Map.of("partnerId", partner, "limit", 2));
        assertEquals(answer(expected.subList(0, 2), (String) expected.get(1).get("memberId")), first);
        Map<String, Object> second = page(Map.of("partnerId", partner, "limit", 2, "after", first.get("next")));
        assertEquals(answer(expected.subList(2, 4), (String) expected.get(3).get("memberId")), second);
        Map<String, Object> third = page(Map.of("partnerId", partner, "limit", 2, "after", second.get("next")));
        assertEquals(answer(expected.subList(4, 5), null), third);
        // A full last page names its last member; the page after it is empty.
        Map<String, Object> whole = page(Map.of("partnerId", partner, "limit", 5));
        assertEquals(answer(expected, (String) expected.get(4).get("memberId")), whole);
        firstApprovals(Map.of("partnerId", partner, "after", whole.get("next"))).then().statusCode(200)
                .body(equalTo("{\"members\":[],\"next\":null}"));
        // after need not be an approved member: the page starts above it.
        assertEquals(answer(expected, null), page(Map.of("partnerId", partner, "after", "00000000-0000-0000-0000-000000000000")));

        assertEquals(answer(byMember(List.of(approval(theirs, "2026-11-21T08:30:00.000Z"),
                approval((String) expected.get(2).get("memberId"), "2026-11-21T07:30:00.000Z"))), null),
                page(Map.of("partnerId", other)));
        assertEquals(answer(List.of(), null), page(Map.of("partnerId", RequestFixtures.newPartner())));
    }

    @Test
    void anAskWithoutALimitGetsFiveHundred() {
        Instant base = Instant.parse("2026-11-21T09:30:00.000Z");
        ServiceDatabase.update("INSERT INTO requests (id, partner_id, member_id, status, case_notes, created_at, updated_at)"
                + " SELECT gen_random_uuid(), ?, gen_random_uuid(), 'approved', 'notes', ?, ? FROM generate_series(1, 501)",
                partner, utc(base), utc(base));
        ServiceDatabase.update("INSERT INTO history_entries (request_id, action, by_actor, at)"
                + " SELECT id, 'approved', ?, ? FROM requests WHERE partner_id = ?", prescriberId, utc(base), partner);
        List<String> members = ServiceDatabase.texts("SELECT member_id::text FROM requests WHERE partner_id = ? ORDER BY member_id",
                partner);

        Map<String, Object> first = page(Map.of("partnerId", partner));
        assertEquals(members.subList(0, 500), memberIds(first));
        assertEquals(members.get(499), first.get("next"));
        Map<String, Object> rest = page(Map.of("partnerId", partner, "after", first.get("next")));
        assertEquals(answer(List.of(approval(members.get(500), "2026-11-21T09:30:00.000Z")), null), rest);
        assertEquals(members, memberIds(page(Map.of("partnerId", partner, "limit", 1000))));
    }

    @SuppressWarnings("unchecked")
    private static List<String> memberIds(Map<String, Object> page) {
        return ((List<Map<String, Object>>) page.get("members")).stream().map(entry -> (String) entry.get("memberId")).toList();
    }

    @Test
    void theQueryIsValidatedWithEveryIssueAtOnce() {
        Map<String, Object> required = RequestFixtures.issue("invalid_type", List.of("partnerId"), "Required",
                "expected", "string", "received", "undefined");
        firstApprovals(Map.of()).then().statusCode(400).contentType("application/json")
                .body("", equalTo(Map.of("error", List.of(required))));
        // An empty value reaches the resource as no value.
        given().urlEncodingEnabled(false).when().get(PATH + "?partnerId=").then().statusCode(400)
                .body("", equalTo(Map.of("error", List.of(required))));
        firstApprovals(Map.of("partnerId", "p".repeat(65))).then().statusCode(400)
                .body("", equalTo(Map.of("error", List.of(RequestFixtures.issue("too_big", List.of("partnerId"),
                        "String must contain at most 64 character(s)",
                        "maximum", 64, "type", "string", "inclusive", true, "exact", false)))));
        for (String after : List.of("not-a-uuid", "1-2-3-4-5", UUID.randomUUID() + "0")) {
            firstApprovals(Map.of("partnerId", partner, "after", after)).then().statusCode(400)
                    .body("", equalTo(Map.of("error", List.of(RequestFixtures.issue("invalid_string", List.of("after"),
                            "Invalid uuid", "validation", "regex")))));
        }
        firstApprovals(Map.of("partnerId", partner, "limit", 0)).then().statusCode(400)
                .body("", equalTo(Map.of("error", List.of(RequestFixtures.issue("too_small", List.of("limit"),
                        "Number must be greater than or equal to 1",
                        "minimum", 1, "type", "number", "inclusive", true, "exact", false)))));
        firstApprovals(Map.of("partnerId", partner, "limit", 1001)).then().statusCode(400)
                .body("", equalTo(Map.of("error", List.of(RequestFixtures.issue("too_big", List.of("limit"),
                        "Number must be less than or equal to 1000",
                        "maximum", 1000, "type", "number", "inclusive", true, "exact", false)))));
        firstApprovals(Map.of("partnerId", partner, "limit", "abc")).then().statusCode(400)
                .body("", equalTo(Map.of("error", List.of(RequestFixtures.issue("invalid_type", List.of("limit"),
                        "Expected number, received nan", "expected", "number", "received", "nan")))));
        firstApprovals(Map.of("partnerId", partner, "limit", "2.5")).then().statusCode(400)
                .body("", equalTo(Map.of("error", List.of(RequestFixtures.issue("invalid_type", List.of("limit"),
                        "Expected integer, received float", "expected", "integer", "received", "float")))));
        firstApprovals(Map.of("after", "nope", "limit", 5000)).then().statusCode(400)
                .body("error.path", equalTo(List.of(List.of("partnerId"), List.of("after"), List.of("limit"))));
    }

    @Test
    void noCallWithoutAServiceProof() {
        Response response = given().noFilters().queryParam("partnerId", partner).when().get(PATH);
        response.then().statusCode(401).contentType("application/json");
        assertEquals("{\"error\":\"Unauthorized\"}", response.body().asString());
    }
}
