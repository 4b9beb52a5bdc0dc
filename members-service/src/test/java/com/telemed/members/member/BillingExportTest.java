package com.telemed.members.member;

import static com.telemed.members.member.MemberFixtures.create;
import static com.telemed.members.member.MemberFixtures.newPartner;
import static com.telemed.members.member.MemberFixtures.put;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.telemed.members.FakeRequestsService;
import com.telemed.members.FakeRequestsServiceResource;
import com.telemed.testkit.kafka.TopicReader;
import com.telemed.testkit.quarkus.InfrastructureResource;
import com.telemed.testkit.quarkus.ServiceDatabase;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code GET /internal/members/billing-export}: billing-service's rebuild pages through a partner's members. */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = FakeRequestsServiceResource.class, scope = TestResourceScope.GLOBAL)
class BillingExportTest {

    private static final String PATH = "/internal/members/billing-export";

    @Inject
    FakeRequestsService requestsService;

    @BeforeEach
    void reset() {
        requestsService.reset();
    }

    private static Response export(Map<String, ?> query) {
        return given().queryParams(query).when().get(PATH);
    }

    private static Map<String, Object> page(Map<String, ?> query) {
        return export(query).then().statusCode(200).contentType(ContentType.JSON).extract().as(Map.class);
    }

    private static Map<String, Object> statusChange(String id, String status, String at) {
        Map<String, Object> change = new LinkedHashMap<>();
        change.put("id", id);
        change.put("status", status);
        change.put("at", at);
        return change;
    }

    /** The exact entry of a member as its internal read shows it now, with these status changes after its creation. */
    private static Map<String, Object> entry(String partnerId, String memberId, List<Map<String, Object>> changes) {
        Map<String, Object> member = given().queryParam("partnerId", partnerId).when().get("/internal/members/" + memberId)
                .then().statusCode(200).extract().path("member");
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("memberId", memberId);
        entry.put("firstName", member.get("firstName"));
        entry.put("lastName", member.get("lastName"));
        entry.put("email", member.get("email"));
        entry.put("createdAt", member.get("createdAt"));
        entry.put("updatedAt", member.get("updatedAt"));
        List<Map<String, Object>> statuses = new ArrayList<>();
        statuses.add(statusChange(memberId, "active", (String) member.get("createdAt")));
        statuses.addAll(changes);
        entry.put("statusChanges", statuses);
        return entry;
    }

    /** The member's {@code member.status_changed} events' {@code statusChangeId}s, in order. */
    private static List<String> statusChangeIds(String memberId, int events) {
        List<ConsumerRecord<String, String>> records = TopicReader.readKey(TopicReader.configuredBootstrapServers(),
                MemberEvents.TOPIC, memberId, events, Duration.ofSeconds(30));
        List<String> ids = new ArrayList<>();
        for (ConsumerRecord<String, String> record : records) {
            var event = TopicReader.json(record);
            if (event.get("type").asText().equals(MemberEvents.STATUS_CHANGED)) {
                ids.add(event.get("data").get("statusChangeId").asText());
            }
        }
        return ids;
    }

    /** PostgreSQL orders uuids by their bytes, which is the order of their lowercase text. */
    private static List<String> byId(String... ids) {
        List<String> sorted = new ArrayList<>(Arrays.asList(ids));
        sorted.sort(null);
        return sorted;
    }

    private static Map<String, Object> issue(String code, String path, String message, Object... details) {
        Map<String, Object> issue = new LinkedHashMap<>();
        issue.put("code", code);
        for (int i = 0; i < details.length; i += 2) {
            issue.put((String) details[i], details[i + 1]);
        }
        issue.put("path", List.of(path));
        issue.put("message", message);
        return issue;
    }

    @Test
    void pagesThroughThePartnersMembersByIdWithEveryStatusTheyHad() {
        String partnerId = newPartner();
        String ada = create(partnerId, "Ada", "Lovelace", "Ada@Example.com");
        String grace = create(partnerId, "Grace", "Hopper", "grace@example.com");
        String alan = create(partnerId, "Alan", "Turing", "alan@example.com");
        String edsger = create(partnerId, "Edsger", "Dijkstra", "edsger@example.com");
        String barbara = create(partnerId, "Barbara", "Liskov", "barbara@example.com");

        // Ada: paused, then active again, then cancelled; Grace: cancelled (and renamed); the others never change status.
        String paused = put(partnerId, ada, "{\"status\": \"paused\"}").then().statusCode(200).extract().path("member.updatedAt");
        String resumed = put(partnerId, ada, "{\"status\": \"active\", \"firstName\": \"Augusta\"}")
                .then().statusCode(200).extract().path("member.updatedAt");
        put(partnerId, ada, "{\"lastName\": \"King\"}").then().statusCode(200);
        String cancelled = put(partnerId, ada, "{\"status\": \"cancelled\"}").then().statusCode(200).extract().path("member.updatedAt");
        String graceCancelled = put(partnerId, grace, "{\"status\": \"cancelled\", \"lastName\": \"Murray Hopper\"}")
                .then().statusCode(200).extract().path("member.updatedAt");
        // Ada: created, 4 updates, 3 status changes; Grace: created, 1 update, 1 status change.
        List<String> adaChanges = statusChangeIds(ada, 8);
        List<String> graceChanges = statusChangeIds(grace, 3);
        // The ids billing-service got on member.status_changed are the audit rows' ids.
        assertEquals(MemberFixtures.auditIdsOf(ada), adaChanges);
        assertEquals(MemberFixtures.auditIdsOf(grace), graceChanges);

        Map<String, Map<String, Object>> expected = new HashMap<>();
        expected.put(ada, entry(partnerId, ada, List.of(
                statusChange(adaChanges.get(0), "paused", paused),
                statusChange(adaChanges.get(1), "active", resumed),
                statusChange(adaChanges.get(2), "cancelled", cancelled))));
        expected.put(grace, entry(partnerId, grace, List.of(statusChange(graceChanges.get(0), "cancelled", graceCancelled))));
        for (String id : List.of(alan, edsger, barbara)) {
            expected.put(id, entry(partnerId, id, List.of()));
        }
        assertEquals("Augusta", expected.get(ada).get("firstName"));
        assertEquals("King", expected.get(ada).get("lastName"));
        assertEquals("Ada@Example.com", expected.get(ada).get("email"), "the email as stored");

        List<String> ids = byId(ada, grace, alan, edsger, barbara);
        Map<String, Object> first = page(Map.of("partnerId", partnerId, "limit", 2));
        assertEquals(List.of(expected.get(ids.get(0)), expected.get(ids.get(1))), first.get("members"));
        assertEquals(ids.get(1), first.get("next"));
        Map<String, Object> second = page(Map.of("partnerId", partnerId, "limit", 2, "after", first.get("next")));
        assertEquals(List.of(expected.get(ids.get(2)), expected.get(ids.get(3))), second.get("members"));
        assertEquals(ids.get(3), second.get("next"));
        // Fewer than asked: the last page, next null (present, not left out).
        Map<String, Object> last = new LinkedHashMap<>();
        last.put("members", List.of(expected.get(ids.get(4))));
        last.put("next", null);
        Map<String, Object> thirdPage = Map.of("partnerId", partnerId, "limit", 2, "after", second.get("next"));
        assertEquals(last, page(thirdPage));
        String third = export(thirdPage).then().statusCode(200).extract().asString();
        assertEquals(true, third.endsWith("],\"next\":null}"), third);

        // The whole list in one page; a page that is exactly full still names its last id, and the page after it is empty.
        Map<String, Object> whole = page(Map.of("partnerId", partnerId, "limit", 5));
        assertEquals(ids.stream().map(expected::get).toList(), whole.get("members"));
        assertEquals(ids.get(4), whole.get("next"));
        export(Map.of("partnerId", partnerId, "limit", 5, "after", ids.get(4))).then().statusCode(200)
                .body(equalTo("{\"members\":[],\"next\":null}"));
        // after need not be one of the partner's ids: the page starts above it.
        assertEquals(ids.subList(2, 5), memberIds(page(Map.of("partnerId", partnerId, "after", ids.get(1)))));
        // Key order of an entry and of a status change, as documented.
        Map<String, Object> graceOnly = new HashMap<>(Map.of("partnerId", partnerId, "limit", 1));
        if (ids.indexOf(grace) > 0) {
            graceOnly.put("after", ids.get(ids.indexOf(grace) - 1));
        }
        String body = export(graceOnly).then().statusCode(200).extract().asString();
        assertEquals(true, body.startsWith("{\"members\":[{\"memberId\":\"" + grace + "\",\"firstName\":\"Grace\","
                + "\"lastName\":\"Murray Hopper\",\"email\":\"grace@example.com\",\"createdAt\":\""
                + expected.get(grace).get("createdAt") + "\",\"updatedAt\":\"" + graceCancelled + "\",\"statusChanges\":"
                + "[{\"id\":\"" + grace + "\",\"status\":\"active\",\"at\":\"" + expected.get(grace).get("createdAt") + "\"},"
                + "{\"id\":\"" + graceChanges.get(0) + "\",\"status\":\"cancelled\",\"at\":\"" + graceCancelled + "\"}]}],"), body);
    }

    @SuppressWarnings("unchecked")
    private static List<String> memberIds(Map<String, Object> page) {
        return ((List<Map<String, Object>>) page.get("members")).stream().map(member -> (String) member.get("memberId")).toList();
    }

    @Test
    void anotherPartnersMembersNeverAppearAndDeletedMembersAreGone() {
        String partnerId = newPartner();
        String other = newPartner();
        List<String> mine = new ArrayList<>();
        List<String> theirs = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            mine.add(create(partnerId, "Mine" + i, "M", "mine" + i + "@example.com"));
            theirs.add(create(other, "Theirs" + i, "T", "theirs" + i + "@example.com"));
        }
        // The same email at another partner is another member.
        theirs.add(create(other, "Mine0", "M", "mine0@example.com"));
        String gone = create(partnerId, "Gone", "G", "gone@example.com");
        MemberFixtures.delete(partnerId, gone).then().statusCode(204);

        mine.sort(null);
        theirs.sort(null);
        assertEquals(mine, memberIds(page(Map.of("partnerId", partnerId))));
        assertEquals(theirs, memberIds(page(Map.of("partnerId", other))));
        // Page by page too, starting after another partner's id: still only the partner's own.
        List<String> paged = new ArrayList<>();
        Object after = theirs.get(0);
        do {
            Map<String, Object> page = page(Map.of("partnerId", partnerId, "limit", 1, "after", after));
            paged.addAll(memberIds(page));
            after = page.get("next");
        } while (after != null);
        assertEquals(mine.stream().filter(id -> id.compareTo(theirs.get(0)) > 0).toList(), paged);
        export(Map.of("partnerId", newPartner())).then().statusCode(200).body(equalTo("{\"members\":[],\"next\":null}"));
    }

    @Test
    void anAskWithoutALimitGetsFiveHundredAndOneThousandIsTheLargestPage() {
        String partnerId = newPartner();
        // 1,001 members straight into the table (created a second apart, never changed).
        ServiceDatabase.update("INSERT INTO members (id, partner_id, first_name, last_name, email, date_of_birth, state,"
                + " status, street1, city, address_state, zip_code, created_at, updated_at)"
                + " SELECT gen_random_uuid(), ?, 'Bulk', 'Member' || n, 'bulk' || n || '@example.com', '1990-04-01', 'CA',"
                + " 'active', '1 Main St', 'Springfield', 'CA', '90210', now() - n * interval '1 second',"
                + " now() - n * interval '1 second' FROM generate_series(1, 1001) AS n", partnerId);
        List<String> all = ServiceDatabase.texts("SELECT id::text FROM members WHERE partner_id = ? ORDER BY id", partnerId);
        assertEquals(1001, all.size());

        Map<String, Object> first = page(Map.of("partnerId", partnerId));
        assertEquals(all.subList(0, 500), memberIds(first));
        assertEquals(all.get(499), first.get("next"));
        Map<String, Object> largest = page(Map.of("partnerId", partnerId, "limit", 1000));
        assertEquals(all.subList(0, 1000), memberIds(largest));
        assertEquals(all.get(999), largest.get("next"));
        Map<String, Object> rest = page(Map.of("partnerId", partnerId, "limit", 1000, "after", largest.get("next")));
        assertEquals(List.of(all.get(1000)), memberIds(rest));
        assertEquals(null, rest.get("next"));
        // An entry of a member that never changed status: its creation alone.
        @SuppressWarnings("unchecked")
        Map<String, Object> entry = ((List<Map<String, Object>>) rest.get("members")).get(0);
        assertEquals(List.of(statusChange(all.get(1000), "active", (String) entry.get("createdAt"))), entry.get("statusChanges"));
        assertEquals(true, ((String) entry.get("createdAt")).matches(MemberFixtures.TIMESTAMP), entry.toString());
    }

    @Test
    void theQueryIsValidatedWithEveryIssueAtOnce() {
        String partnerId = newPartner();
        create(partnerId, "Ann", "Lee", "ann@example.com");
        Map<String, Object> required = new LinkedHashMap<>();
        required.put("code", "invalid_type");
        required.put("expected", "string");
        required.put("received", "undefined");
        required.put("path", List.of("partnerId"));
        required.put("message", "Required");

        export(Map.of()).then().statusCode(400).contentType(ContentType.JSON).body("error", equalTo(List.of(required)));
        // An empty value reaches the resource as no value, as for the other internal routes.
        given().urlEncodingEnabled(false).when().get(PATH + "?partnerId=").then().statusCode(400)
                .body("error", equalTo(List.of(required)));
        export(Map.of("partnerId", "p".repeat(65))).then().statusCode(400)
                .body("error", equalTo(List.of(issue("too_big", "partnerId", "String must contain at most 64 character(s)",
                        "maximum", 64, "type", "string", "inclusive", true, "exact", false))));

        Map<String, Object> notAUuid = issue("invalid_string", "after", "Invalid uuid", "validation", "regex");
        for (String after : List.of("not-a-uuid", "1-2-3-4-5", UUID.randomUUID() + "0")) {
            export(Map.of("partnerId", partnerId, "after", after)).then().statusCode(400)
                    .body("error", equalTo(List.of(notAUuid)));
        }
        export(Map.of("partnerId", partnerId, "limit", 0)).then().statusCode(400)
                .body("error", equalTo(List.of(issue("too_small", "limit", "Number must be greater than or equal to 1",
                        "minimum", 1, "type", "number", "inclusive", true, "exact", false))));
        export(Map.of("partnerId", partnerId, "limit", 1001)).then().statusCode(400)
                .body("error", equalTo(List.of(issue("too_big", "limit", "Number must be less than or equal to 1000",
                        "maximum", 1000, "type", "number", "inclusive", true, "exact", false))));
        export(Map.of("partnerId", partnerId, "limit", "abc")).then().statusCode(400)
                .body("error", equalTo(List.of(issue("invalid_type", "limit", "Expected number, received nan",
                        "expected", "number", "received", "nan"))));
        export(Map.of("partnerId", partnerId, "limit", "2.5")).then().statusCode(400)
                .body("error", equalTo(List.of(issue("invalid_type", "limit", "Expected integer, received float",
                        "expected", "integer", "received", "float"))));
        // All at once, in the query's order.
        export(Map.of("after", "nope", "limit", 5000)).then().statusCode(400)
                .body("error.path", equalTo(List.of(List.of("partnerId"), List.of("after"), List.of("limit"))));
    }

    @Test
    void noCallWithoutAServiceProof() {
        String partnerId = newPartner();
        create(partnerId, "Ann", "Lee", "ann@example.com");
        var response = given().noFilters().queryParam("partnerId", partnerId).when().get(PATH);
        response.then().statusCode(401).contentType(ContentType.JSON);
        assertEquals("{\"error\":\"Unauthorized\"}", response.body().asString());
    }
}
