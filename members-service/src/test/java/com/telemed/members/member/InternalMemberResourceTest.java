package com.telemed.members.member;

import static com.telemed.members.member.MemberFixtures.ADDRESS_FIELDS;
import static com.telemed.members.member.MemberFixtures.TIMESTAMP;
import static com.telemed.members.member.MemberFixtures.create;
import static com.telemed.members.member.MemberFixtures.memberBody;
import static com.telemed.members.member.MemberFixtures.newPartner;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.members.FakeRequestsService;
import com.telemed.members.FakeRequestsServiceResource;
import com.telemed.testkit.kafka.TopicReader;
import com.telemed.testkit.quarkus.InfrastructureResource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/** {@code /internal/members} as requests-service calls it: partner in the call, no gateway header. */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = FakeRequestsServiceResource.class, scope = TestResourceScope.GLOBAL)
class InternalMemberResourceTest {

    static final Set<String> INTERNAL_FIELDS = Set.of("id", "partnerId", "firstName", "lastName", "email", "phone",
            "dateOfBirth", "state", "status", "gender", "address", "shippingAddress", "createdAt", "updatedAt",
            "version");

    @Inject
    FakeRequestsService requestsService;

    private static String findOrCreateBody(String partnerId, String member) {
        return "{\"partnerId\": \"" + partnerId + "\", \"member\": " + member + "}";
    }

    private static Response findOrCreate(String body) {
        return given().contentType(ContentType.JSON).body(body).when().post("/internal/members/find-or-create");
    }

    /**
     * find-or-create as requests-service asks it: a reuse answered with its fence is asked again naming
     * that fence (which requests-service would have recorded in between).
     */
    private static Response findOrCreate(String partnerId, String member) {
        Response answer = findOrCreate(findOrCreateBody(partnerId, member));
        // A concurrent change makes a recorded fence stale: asked again with the next one, as requests-service does.
        for (int round = 0; round < 10 && answer.statusCode() == 200 && answer.jsonPath().getMap("fence") != null; round++) {
            Map<String, Object> fence = answer.jsonPath().getMap("fence");
            answer = findOrCreate(fenced(partnerId, member, (String) fence.get("memberId"), ((Number) fence.get("version")).longValue()));
        }
        return answer;
    }

    private static String fenced(String partnerId, String member, String memberId, long version) {
        return "{\"partnerId\": \"" + partnerId + "\", \"member\": " + member + ", \"fenced\": {\"memberId\": \"" + memberId
                + "\", \"version\": " + version + "}}";
    }

    /**
     * A reuse changes an existing member, so it needs its fence at requests-service first (README, "Version
     * and fence"): until asked with exactly that fence (this member, its version + 1), find-or-create changes
     * nothing and answers the fence.
     */
    @Test
    void aReuseIsAnsweredWithItsFenceUntilAskedWithExactlyThatFence() {
        String partnerId = newPartner();
        String id = create(partnerId, "Ada", "Lovelace", "fence@example.com");
        String ask = memberBody("Augusta", "Lovelace", "FENCE@example.com");
        String fenceAnswer = "{\"member\":null,\"created\":false,\"fence\":{\"memberId\":\"" + id + "\",\"version\":2}}";

        assertEquals(fenceAnswer, findOrCreate(findOrCreateBody(partnerId, ask)).then().statusCode(200).extract().asString());
        assertEquals(fenceAnswer, findOrCreate(fenced(partnerId, ask, id, 3)).then().statusCode(200).extract().asString());
        assertEquals(fenceAnswer, findOrCreate(fenced(partnerId, ask, id, 1)).then().statusCode(200).extract().asString());
        assertEquals(fenceAnswer, findOrCreate(fenced(partnerId, ask, UUID.randomUUID().toString(), 2))
                .then().statusCode(200).extract().asString());
        assertEquals(fenceAnswer, findOrCreate(fenced(partnerId, ask, "not-a-uuid", 2)).then().statusCode(200).extract().asString());
        internalGet(partnerId, id).then().statusCode(200).body("member.firstName", equalTo("Ada")).body("member.version", equalTo(1));

        findOrCreate(fenced(partnerId, ask, id, 2)).then().statusCode(200)
                .body("created", equalTo(false)).body("member.id", equalTo(id)).body("member.firstName", equalTo("Augusta"))
                .body("member.version", equalTo(2)).body("fence", org.hamcrest.Matchers.nullValue());
        // The same fence again is stale now: the member is at 2, its next change is 3.
        findOrCreate(fenced(partnerId, ask, id, 2)).then().statusCode(200)
                .body("member", org.hamcrest.Matchers.nullValue()).body("fence.version", equalTo(3));
        findOrCreate(fenced(partnerId, "{\"firstName\": \"x\"}", id, 2)).then().statusCode(400);
        findOrCreate("{\"partnerId\": \"" + partnerId + "\", \"member\": " + ask + ", \"fenced\": {\"memberId\": \"" + id
                + "\", \"version\": 0}}").then().statusCode(400)
                .body("error.path", equalTo(List.of(List.of("fenced", "version")))).body("error.code", equalTo(List.of("too_small")));
    }

    private static Response internalGet(String partnerId, String id) {
        return given().queryParam("partnerId", partnerId).when().get("/internal/members/" + id);
    }

    private static Response access(String partnerId, String id) {
        return given().queryParam("partnerId", partnerId).when().get("/internal/members/" + id + "/access");
    }

    private static Response batch(String body) {
        return given().contentType(ContentType.JSON).body(body).when().post("/internal/members/batch");
    }

    private static Map<String, Object> address(String street1, String street2, String city, String state, String zip) {
        Map<String, Object> address = new HashMap<>();
        address.put("street1", street1);
        address.put("street2", street2);
        address.put("city", city);
        address.put("state", state);
        address.put("zipCode", zip);
        return address;
    }

    private static Map<String, Object> issue(String code, List<Object> path, String message, Object... details) {
        Map<String, Object> issue = new LinkedHashMap<>();
        issue.put("code", code);
        for (int i = 0; i < details.length; i += 2) {
            issue.put((String) details[i], details[i + 1]);
        }
        issue.put("path", path);
        issue.put("message", message);
        return issue;
    }

    private static Map<String, Object> required(String expected, Object... path) {
        return issue("invalid_type", List.of(path), "Required", "expected", expected, "received", "undefined");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> member(Map<String, Object> body) {
        return (Map<String, Object>) body.get("member");
    }

    @Test
    void createsAnActiveMemberWith201ThenReusesItWith200() {
        String partnerId = newPartner();
        Map<String, Object> created = findOrCreate(partnerId, """
                {"firstName": "Ada", "lastName": "Lovelace", "email": "ada@example.com", "phone": "+1 555 0100",
                 "dateOfBirth": "1815-12-10", "state": "NY", "gender": "f", "status": "cancelled",
                 "address": {"street1": "1 Main St", "street2": "Apt 2", "city": "Albany", "state": "NY",
                             "zipCode": "12207-1234"},
                 "shippingAddress": {"street1": "9 Dock Rd", "city": "Buffalo", "state": "NY", "zipCode": "14201"}}""")
                .then().statusCode(201).contentType(ContentType.JSON).extract().as(Map.class);
        assertEquals(Set.of("member", "created"), created.keySet());
        assertEquals(true, created.get("created"));
        Map<String, Object> member = member(created);
        assertEquals(INTERNAL_FIELDS, member.keySet());
        String id = (String) member.get("id");
        assertTrue(UUID.fromString(id).toString().equals(id));
        assertEquals(partnerId, member.get("partnerId"));
        assertEquals("Ada", member.get("firstName"));
        assertEquals("Lovelace", member.get("lastName"));
        assertEquals("ada@example.com", member.get("email"));
        assertEquals("+1 555 0100", member.get("phone"));
        assertEquals("1815-12-10", member.get("dateOfBirth"));
        assertEquals("NY", member.get("state"));
        assertEquals("active", member.get("status"));
        assertEquals("f", member.get("gender"));
        assertEquals(address("1 Main St", "Apt 2", "Albany", "NY", "12207-1234"), member.get("address"));
        assertEquals(address("9 Dock Rd", null, "Buffalo", "NY", "14201"), member.get("shippingAddress"));
        assertTrue(((String) member.get("createdAt")).matches(TIMESTAMP));
        assertEquals(member.get("createdAt"), member.get("updatedAt"));
        assertEquals(1, member.get("version"), "a new member starts at version 1");

        Map<String, Object> reused = findOrCreate(partnerId, """
                {"firstName": "Augusta", "lastName": "Lovelace", "email": "ADA@Example.com",
                 "dateOfBirth": "1815-12-10", "state": "NY",
                 "address": {"street1": "1 Main St", "street2": "Apt 2", "city": "Albany", "state": "NY",
                             "zipCode": "12207-1234"}}""")
                .then().statusCode(200).contentType(ContentType.JSON).extract().as(Map.class);
        assertEquals(Set.of("member", "created"), reused.keySet());
        assertEquals(false, reused.get("created"));
        Map<String, Object> again = member(reused);
        assertEquals(INTERNAL_FIELDS, again.keySet());
        assertEquals(id, again.get("id"));
        assertEquals("Augusta", again.get("firstName"));
        assertEquals("ADA@Example.com", again.get("email"));
        // Not sent: kept.
        assertEquals("+1 555 0100", again.get("phone"));
        assertEquals("f", again.get("gender"));
        assertEquals(address("9 Dock Rd", null, "Buffalo", "NY", "14201"), again.get("shippingAddress"));
        assertEquals(member.get("createdAt"), again.get("createdAt"));
        assertNotEquals(member.get("updatedAt"), again.get("updatedAt"));
        assertEquals(2, again.get("version"), "a reuse is a change: the next version");

        // The partner API sees the same one member.
        MemberFixtures.list(partnerId, Map.of()).then().statusCode(200)
                .body("members.id", equalTo(List.of(id)));
    }

    @Test
    void matchesTheNewestOfSeveralMembersWithTheEmailInAnyCase() {
        String partnerId = newPartner();
        String oldest = create(partnerId, "Old", "One", "Dup@Example.com");
        String newest = create(partnerId, "New", "One", "dup@example.COM");
        create(partnerId, "Other", "One", "dup2@example.com");

        findOrCreate(partnerId, memberBody("Picked", "One", "DUP@EXAMPLE.COM"))
                .then().statusCode(200).body("created", equalTo(false)).body("member.id", equalTo(newest))
                .body("member.firstName", equalTo("Picked"));
        MemberFixtures.get(partnerId, oldest).then().statusCode(200).body("firstName", equalTo("Old"))
                .body("email", equalTo("Dup@Example.com"));
    }

    @Test
    void anotherPartnersMemberWithTheEmailIsNotMatched() {
        String owner = newPartner();
        String foreign = create(owner, "Theirs", "One", "shared@example.com");
        String asking = newPartner();

        Map<String, Object> answer = findOrCreate(asking, memberBody("Mine", "Two", "shared@example.com"))
                .then().statusCode(201).extract().as(Map.class);
        assertEquals(true, answer.get("created"));
        assertNotEquals(foreign, member(answer).get("id"));
        assertEquals(asking, member(answer).get("partnerId"));
        MemberFixtures.get(owner, foreign).then().statusCode(200).body("firstName", equalTo("Theirs"));

        // And the asking partner's member is now the one reused for it, the owner's for the owner.
        findOrCreate(asking, memberBody("Mine", "Again", "SHARED@example.com")).then().statusCode(200)
                .body("member.id", equalTo(member(answer).get("id")));
        findOrCreate(owner, memberBody("Theirs", "Again", "shared@example.com")).then().statusCode(200)
                .body("member.id", equalTo(foreign));
    }

    @Test
    void reuseUpdatesOnlyTheSentFieldsWithPutRules() {
        String partnerId = newPartner();
        String id = findOrCreate(partnerId, """
                {"firstName": "Grace", "lastName": "Hopper", "email": "grace@example.com", "phone": "555",
                 "dateOfBirth": "1906-12-09", "state": "NY", "gender": "f",
                 "address": {"street1": "1 Navy Way", "street2": "Suite 9", "city": "Arlington", "state": "VA",
                             "zipCode": "22202"},
                 "shippingAddress": {"street1": "2 Dock", "city": "Norfolk", "state": "VA", "zipCode": "23501"}}""")
                .then().statusCode(201).extract().path("member.id");
        // A paused member stays paused: status is not an inline member field.
        MemberFixtures.put(partnerId, id, "{\"status\": \"paused\"}").then().statusCode(200);

        Map<String, Object> member = member(findOrCreate(partnerId, """
                {"firstName": "Grace", "lastName": "Hopper", "email": "grace@example.com", "phone": null,
                 "dateOfBirth": "1906-12-09", "state": "VA", "gender": "u", "status": "active",
                 "address": {"street1": "3 New Rd", "city": "Richmond", "state": "VA", "zipCode": "23219"},
                 "shippingAddress": null}""")
                .then().statusCode(200).body("created", equalTo(false)).extract().as(Map.class));
        assertEquals(id, member.get("id"));
        assertEquals("paused", member.get("status"));
        assertNull(member.get("phone"));
        assertEquals("VA", member.get("state"));
        assertEquals("u", member.get("gender"));
        // Replaced whole: street2 is gone.
        assertEquals(address("3 New Rd", null, "Richmond", "VA", "23219"), member.get("address"));
        assertNull(member.get("shippingAddress"));

        // What was stored is what the internal and partner reads show.
        assertEquals(member, member(internalGet(partnerId, id).then().statusCode(200).extract().as(Map.class)));
        MemberFixtures.get(partnerId, id).then().statusCode(200).body("status", equalTo("paused"))
                .body("phone", equalTo(null)).body("shippingAddress", equalTo(null))
                .body("address.street1", equalTo("3 New Rd"));
        assertEquals(List.of("active->paused@" + partnerId), MemberFixtures.auditOf(id));
    }

    @Test
    void issuesAreThoseOfCreateUnderTheMemberField() {
        String partnerId = newPartner();
        findOrCreate(partnerId, """
                {"firstName": "", "lastName": "X", "email": "not-an-email", "dateOfBirth": "1990-04-01",
                 "state": "CA", "gender": "x",
                 "address": {"street1": "1 Main St", "city": "Springfield", "state": "CA", "zipCode": "90210"},
                 "shippingAddress": {"street1": "2 Side St", "city": "Springfield", "state": "CA", "zipCode": "9021"}}""")
                .then().statusCode(400).contentType(ContentType.JSON)
                .body("error", equalTo(List.of(
                        issue("too_small", List.of("member", "firstName"),
                                "String must contain at least 1 character(s)",
                                "minimum", 1, "type", "string", "inclusive", true, "exact", false),
                        issue("invalid_string", List.of("member", "email"), "Invalid email", "validation", "email"),
                        issue("invalid_enum_value", List.of("member", "gender"),
                                "Invalid enum value. Expected 'm' | 'f' | 'a' | 'u', received 'x'",
                                "received", "x", "options", List.of("m", "f", "a", "u")),
                        issue("invalid_string", List.of("member", "shippingAddress", "zipCode"), "Invalid",
                                "validation", "regex"))));

        findOrCreate("{}").then().statusCode(400)
                .body("error", equalTo(List.of(required("string", "partnerId"), required("object", "member"))));
        findOrCreate(findOrCreateBody(partnerId, "{\"email\": \"a@example.com\"}")).then().statusCode(400)
                .body("error.path", equalTo(List.of(List.of("member", "firstName"), List.of("member", "lastName"),
                        List.of("member", "dateOfBirth"), List.of("member", "state"), List.of("member", "address"))));
        findOrCreate("{\"partnerId\": \"\", \"member\": " + memberBody("A", "B", "a@example.com") + "}")
                .then().statusCode(400).body("error.path", equalTo(List.of(List.of("partnerId"))));

        // Nothing was created for the partner.
        MemberFixtures.list(partnerId, Map.of()).then().statusCode(200).body("members", equalTo(List.of()));
    }

    @Test
    void tenConcurrentCallsForOneNewEmailMakeOneMember() throws Exception {
        String partnerId = newPartner();
        int threads = 10;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<Response>> calls = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                // The same address in different cases.
                String email = i % 2 == 0 ? "race@example.com" : "Race@Example.COM";
                String member = memberBody("Racer" + i, "R", email);
                calls.add(pool.submit(() -> {
                    start.await();
                    return findOrCreate(partnerId, member);
                }));
            }
            start.countDown();
            List<Integer> statuses = new ArrayList<>();
            Set<String> ids = new java.util.HashSet<>();
            for (Future<Response> call : calls) {
                Response response = call.get(60, TimeUnit.SECONDS);
                statuses.add(response.statusCode());
                ids.add(response.path("member.id"));
            }
            assertEquals(1, statuses.stream().filter(status -> status == 201).count(), statuses.toString());
            assertEquals(9, statuses.stream().filter(status -> status == 200).count(), statuses.toString());
            assertEquals(1, ids.size(), ids.toString());
            MemberFixtures.list(partnerId, Map.of("search", "race@example.com")).then().statusCode(200)
                    .body("members.id", equalTo(new ArrayList<>(ids)));
            MemberFixtures.list(partnerId, Map.of()).then().statusCode(200).body("pagination.total", equalTo(1));
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void getAnswersTheStoredMemberOfThatPartnerOnly() {
        String partnerId = newPartner();
        String id = create(partnerId, """
                {"firstName": "Ann", "lastName": "Lee", "email": "ann@example.com", "dateOfBirth": "1990-04-01",
                 "state": "CA", "gender": "m",
                 "address": {"street1": "1 Main St", "city": "Springfield", "state": "CA", "zipCode": "90210"}}""");
        Map<String, Object> body = internalGet(partnerId, id).then().statusCode(200).contentType(ContentType.JSON)
                .extract().as(Map.class);
        assertEquals(Set.of("member"), body.keySet());
        Map<String, Object> member = member(body);
        assertEquals(INTERNAL_FIELDS, member.keySet());
        assertEquals(id, member.get("id"));
        assertEquals(partnerId, member.get("partnerId"));
        assertEquals("m", member.get("gender"));
        assertEquals("active", member.get("status"));
        assertEquals(1, member.get("version"));
        assertNull(member.get("phone"));
        assertNull(member.get("shippingAddress"));
        @SuppressWarnings("unchecked")
        Map<String, Object> address = (Map<String, Object>) member.get("address");
        assertEquals(ADDRESS_FIELDS, address.keySet());
        // The stored fields agree with the partner read.
        Map<String, Object> partnerRead = MemberFixtures.get(partnerId, id).then().statusCode(200).extract().as(Map.class);
        for (String field : MemberFixtures.PUT_FIELDS) {
            assertEquals(partnerRead.get(field), member.get(field), field);
        }

        for (String unknown : List.of(UUID.randomUUID().toString(), "not-a-uuid", "1-2-3-4-5")) {
            internalGet(partnerId, unknown).then().statusCode(404).contentType(ContentType.JSON)
                    .body(equalTo("{\"error\":\"Member not found\"}"));
        }
        internalGet(newPartner(), id).then().statusCode(404).body(equalTo("{\"error\":\"Member not found\"}"));
        given().when().get("/internal/members/" + id).then().statusCode(400)
                .body("error", equalTo(List.of(required("string", "partnerId"))));
    }

    /** messaging-service's check: the partner's member, another partner's (403) and an unknown one (404) told apart. */
    @Test
    void accessAnswersThePartnersMemberAndTellsAnotherPartnersFromAnUnknownOne() {
        String partnerId = newPartner();
        String id = create(partnerId, "Ann", "Lee", "ann@example.com");
        Map<String, Object> own = access(partnerId, id).then().statusCode(200).contentType(ContentType.JSON)
                .extract().as(Map.class);
        assertEquals(Set.of("member"), own.keySet());
        assertEquals(INTERNAL_FIELDS, member(own).keySet());
        assertEquals(id, member(own).get("id"));
        assertEquals(partnerId, member(own).get("partnerId"));
        // The very member GET /internal/members/{id} answers.
        assertEquals(internalGet(partnerId, id).then().statusCode(200).extract().as(Map.class), own);

        access(newPartner(), id).then().statusCode(403).contentType(ContentType.JSON)
                .body(equalTo("{\"error\":\"Member does not belong to this partner\"}"));

        for (String unknown : List.of(UUID.randomUUID().toString(), "not-a-uuid", "1-2-3-4-5")) {
            access(partnerId, unknown).then().statusCode(404).contentType(ContentType.JSON)
                    .body(equalTo("{\"error\":\"Member not found\"}"));
        }
    }

    @Test
    void accessToADeletedMemberIsUnknownToEveryPartner() {
        requestsService.reset();
        String partnerId = newPartner();
        String id = create(partnerId, "Gone", "Member", "gone@example.com");
        MemberFixtures.delete(partnerId, id).then().statusCode(204);

        access(partnerId, id).then().statusCode(404).body(equalTo("{\"error\":\"Member not found\"}"));
        access(newPartner(), id).then().statusCode(404).body(equalTo("{\"error\":\"Member not found\"}"));
    }

    @Test
    void accessValidatesThePartnerAsGetDoesBeforeLookingTheMemberUp() {
        String partnerId = newPartner();
        String id = create(partnerId, "Ann", "Lee", "ann@example.com");
        for (String path : List.of("/internal/members/" + id, "/internal/members/" + id + "/access",
                "/internal/members/not-a-uuid/access")) {
            given().when().get(path).then().statusCode(400).contentType(ContentType.JSON)
                    .body("error", equalTo(List.of(required("string", "partnerId"))));
            // An empty query value reaches the resource as no value, for the GET as for the access check.
            given().urlEncodingEnabled(false).when().get(path + "?partnerId=").then().statusCode(400)
                    .body("error", equalTo(List.of(required("string", "partnerId"))));
            given().queryParam("partnerId", "p".repeat(MemberSchemas.PARTNER_ID_MAX + 1)).when().get(path)
                    .then().statusCode(400)
                    .body("error", equalTo(List.of(issue("too_big", List.of("partnerId"),
                            "String must contain at most 64 character(s)",
                            "maximum", 64, "type", "string", "inclusive", true, "exact", false))));
        }
    }

    @Test
    void batchAnswersThePartnersMembersInTheOrderAsked() {
        String partnerId = newPartner();
        String a = create(partnerId, "A", "One", "a@example.com");
        String b = create(partnerId, "B", "Two", "b@example.com");
        String c = create(partnerId, "C", "Three", "c@example.com");
        String foreign = create(newPartner(), "F", "Four", "f@example.com");

        String body = """
                {"partnerId": "%s", "memberIds": ["%s", "%s", "%s", "%s", "not-a-uuid", "%s", "%s"]}"""
                .formatted(partnerId, c, foreign, a, UUID.randomUUID(), b, c);
        Map<String, Object> answer = batch(body).then().statusCode(200).contentType(ContentType.JSON)
                .extract().as(Map.class);
        assertEquals(Set.of("members"), answer.keySet());
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> members = (List<Map<String, Object>>) answer.get("members");
        assertEquals(List.of(c, a, b), members.stream().map(member -> member.get("id")).toList());
        members.forEach(member -> assertEquals(INTERNAL_FIELDS, member.keySet()));
        members.forEach(member -> assertEquals(partnerId, member.get("partnerId")));
        assertEquals(member(internalGet(partnerId, a).then().statusCode(200).extract().as(Map.class)),
                members.get(1));

        batch("{\"partnerId\": \"" + partnerId + "\", \"memberIds\": []}").then().statusCode(200)
                .body(equalTo("{\"members\":[]}"));
    }

    @Test
    void batchValidatesPartnerAndAtMostOneHundredIds() {
        String partnerId = newPartner();
        String id = create(partnerId, "A", "One", "a@example.com");
        List<String> hundred = IntStream.range(0, 99).mapToObj(i -> UUID.randomUUID().toString())
                .collect(Collectors.toCollection(ArrayList::new));
        hundred.add(id);
        String ids = hundred.stream().map(value -> "\"" + value + "\"").collect(Collectors.joining(","));
        batch("{\"partnerId\": \"" + partnerId + "\", \"memberIds\": [" + ids + "]}").then().statusCode(200)
                .body("members.id", equalTo(List.of(id)));
        batch("{\"partnerId\": \"" + partnerId + "\", \"memberIds\": [" + ids + ",\"" + id + "\"]}")
                .then().statusCode(400)
                .body("error", equalTo(List.of(issue("too_big", List.of("memberIds"),
                        "Array must contain at most 100 element(s)",
                        "maximum", 100, "type", "array", "inclusive", true, "exact", false))));
        batch("{}").then().statusCode(400)
                .body("error", equalTo(List.of(required("string", "partnerId"), required("array", "memberIds"))));
        batch("{\"partnerId\": \"" + partnerId + "\", \"memberIds\": [1]}").then().statusCode(400)
                .body("error.path", equalTo(List.of(List.of("memberIds", 0))));
    }

    @Test
    void findOrCreatePublishesCreatedThenUpdated() {
        String partnerId = newPartner();
        String id = findOrCreate(partnerId, memberBody("Eve", "Event", "eve@example.com"))
                .then().statusCode(201).extract().path("member.id");
        findOrCreate(partnerId, memberBody("Evelyn", "Event", "EVE@example.com"))
                .then().statusCode(200).body("member.id", equalTo(id));

        List<ConsumerRecord<String, String>> records = TopicReader.readKey(TopicReader.configuredBootstrapServers(), MemberEvents.TOPIC, id, 2, Duration.ofSeconds(30));
        assertEquals(List.of(MemberEvents.CREATED, MemberEvents.UPDATED), TopicReader.types(records));
        JsonNode created = TopicReader.json(records.get(0));
        assertEquals(partnerId, created.get("partnerId").asText());
        assertEquals(id, created.get("subject").get("memberId").asText());
        assertEquals("{\"memberId\":\"" + id + "\",\"status\":\"active\",\"firstName\":\"Eve\",\"lastName\":\"Event\","
                + "\"email\":\"eve@example.com\"}", created.get("data").toString());
        JsonNode updated = TopicReader.json(records.get(1));
        // The values after the reuse: the email as sent this time (stored as sent), the unchanged last name too.
        assertEquals("{\"memberId\":\"" + id + "\",\"changedFields\":[\"firstName\",\"email\"],\"firstName\":\"Evelyn\","
                + "\"lastName\":\"Event\",\"email\":\"EVE@example.com\"}", updated.get("data").toString());
        assertTrue(updated.get("webhook").isNull());
    }
}
