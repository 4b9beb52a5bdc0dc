package com.telemed.requests.request;

import static com.telemed.requests.request.RequestFixtures.inlineMember;
import static com.telemed.requests.request.RequestFixtures.list;
import static com.telemed.requests.request.RequestFixtures.newPartner;
import static com.telemed.requests.request.RequestFixtures.post;
import static com.telemed.requests.request.RequestFixtures.prescription;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.telemed.common.json.Timestamps;
import com.telemed.requests.PartnerWithDrugAndMember;
import com.telemed.requests.PatientNeighboursResource;
import com.telemed.requests.catalogue.CatalogueClient;
import com.telemed.requests.member.MemberLookup;
import com.telemed.testkit.concurrent.Parallel;
import com.telemed.testkit.quarkus.InfrastructureResource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Idempotency of POST /v1/requests (partner-api.md, Requests; decisions.md, Requests). Patient
 * neighbours: with 50 creates at once on a small machine a 500 ms read timeout would retry a call
 * and blur the count of member calls.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(PatientNeighboursResource.class)
class RequestIdempotencyTest extends PartnerWithDrugAndMember {

    String key;

    @BeforeEach
    void setUp() {
        key = "key-" + UUID.randomUUID();
    }

    private Map<String, Object> inlineBody() {
        Map<String, Object> body = prescription(memberId, drugId);
        body.remove("memberId");
        body.put("member", inlineMember("ada+" + UUID.randomUUID() + "@example.com"));
        return body;
    }

    private static Map<String, Object> replay(String requestId, String memberId, int itemCount) {
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("success", true);
        expected.put("requestId", requestId);
        expected.put("memberId", memberId);
        expected.put("itemCount", itemCount);
        expected.put("message", "Request already exists (idempotent replay)");
        expected.put("idempotentReplay", true);
        return expected;
    }

    private int total(String partnerId) {
        return list(partnerId, "").then().statusCode(200).extract().jsonPath().getInt("pagination.total");
    }

    @Test
    void headerKeyReplaysWithoutTouchingTheMember() {
        Map<String, Object> body = inlineBody();
        Map<String, Object> first = post(partner, body, key).then().statusCode(201).extract().jsonPath().getMap("");
        assertEquals(1, neighbours.findOrCreateCalls().size());
        neighbours.clearCalls();
        Map<String, Object> again = post(partner, body, key).then().statusCode(200).extract().jsonPath().getMap("");
        assertEquals(replay((String) first.get("requestId"), (String) first.get("memberId"), 1), again);
        assertEquals(List.of(), neighbours.findOrCreateCalls(), "no member call on replay");
        assertEquals(1, total(partner));
    }

    @Test
    void bodyKeyReplays() {
        Map<String, Object> body = prescription(memberId, drugId);
        body.put("idempotencyKey", key);
        String requestId = post(partner, body).then().statusCode(201).extract().path("requestId");
        post(partner, body).then().statusCode(200).body("", equalTo(replay(requestId, memberId, 1)));
        assertEquals(1, total(partner));
    }

    @Test
    void headerWinsOverBody() {
        Map<String, Object> body = prescription(memberId, drugId);
        body.put("idempotencyKey", key);
        String requestId = post(partner, body).then().statusCode(201).extract().path("requestId");
        // Same body key, another header key: the header is the key, so this is a new request.
        String other = post(partner, body, "header-" + UUID.randomUUID()).then().statusCode(201).extract().path("requestId");
        assertNotEquals(requestId, other);
        // Header naming the first key, body naming another: replay of the first.
        body.put("idempotencyKey", "unused-" + UUID.randomUUID());
        post(partner, body, key).then().statusCode(200).body("", equalTo(replay(requestId, memberId, 1)));
    }

    @Test
    void replayIgnoresTheBody() {
        String requestId = post(partner, prescription(memberId, drugId), key).then().statusCode(201).extract().path("requestId");
        post(partner, RequestFixtures.consultation(memberId), key).then().statusCode(200)
                .body("", equalTo(replay(requestId, memberId, 1)));
    }

    @Test
    void consultationReplayHasNoItems() {
        String requestId = post(partner, RequestFixtures.consultation(memberId), key).then().statusCode(201).extract().path("requestId");
        post(partner, RequestFixtures.consultation(memberId), key).then().statusCode(200)
                .body("", equalTo(replay(requestId, memberId, 0)));
    }

    @Test
    void keyIsNotRecordedWhenTheCreateFails() {
        post(partner, prescription(memberId, "unknown-" + UUID.randomUUID()), key).then().statusCode(400);
        post(partner, prescription(UUID.randomUUID().toString(), drugId), key).then().statusCode(400);
        post(partner, prescription(memberId, drugId), key).then().statusCode(201)
                .body("message", equalTo("Request queued successfully with 1 item(s)"));
        assertEquals(1, total(partner));
    }

    @Test
    void keysAreScopedPerPartner() {
        String first = post(partner, prescription(memberId, drugId), key).then().statusCode(201).extract().path("requestId");
        String otherPartner = newPartner();
        neighbours.drug(drugId, "Semaglutide", List.of("0.25mg", "0.5mg"), partner, otherPartner);
        String otherMember = neighbours.seedMember(otherPartner, "Alan", "Turing", "alan+" + UUID.randomUUID() + "@example.com");
        String second = post(otherPartner, prescription(otherMember, drugId), key).then().statusCode(201).extract().path("requestId");
        assertNotEquals(first, second);
        assertEquals(1, total(partner));
        assertEquals(1, total(otherPartner));
    }


    @Test
    void fiftyConcurrentCreatesWithOneKeyMakeOneRequestAndOneMemberCall() throws Exception {
        int callers = 50;
        Map<String, Object> body = inlineBody();
        List<Response> answers = Parallel.atOnce(callers, caller -> post(partner, body, key));
        List<Response> created = answers.stream().filter(answer -> answer.statusCode() == 201).toList();
        assertEquals(1, created.size(), "one 201: " + answers.stream().map(Response::statusCode).toList());
        String requestId = created.get(0).jsonPath().getString("requestId");
        String createdMember = created.get(0).jsonPath().getString("memberId");
        Map<String, Object> expectedReplay = replay(requestId, createdMember, 1);
        for (Response answer : answers) {
            if (answer != created.get(0)) {
                assertEquals(200, answer.statusCode(), answer.asString());
                assertEquals(expectedReplay, answer.jsonPath().getMap(""));
            }
        }
        assertEquals(List.of(requestId), list(partner, "").jsonPath().getList("requests.id"));
        assertEquals(1, total(partner));
        // The others waited for the first and replayed it: no member change on replay.
        assertEquals(1, neighbours.findOrCreateCalls().size());
        assertEquals(1, neighbours.membersOf(partner).stream()
                .filter(member -> member.getString("id").equals(createdMember)).count());
    }

    /** Stateless (the clients and the datasource): another replica's reads the same copy and asks the same members-service. */
    @Inject
    MemberLookup memberLookup;

    @Inject
    CatalogueClient catalogueClient;

    @Inject
    CopiedReads copiedReads;

    /** Stateless (the datasource): another replica's is the same statement on the same database. */
    @Inject
    NewRequestRows newRequestRows;

    /**
     * Two instances of the service (the bean, and a second {@link RequestCreation} of its own, as
     * another replica would have) creating with one key at once: the database guard alone decides.
     * One request; every other answer replays it.
     */
    @Test
    void concurrentCreatesOnTwoInstancesMakeOneRequest() throws Exception {
        int callers = 40;
        RequestCreation otherInstance = new RequestCreation(memberLookup, catalogueClient, copiedReads, newRequestRows);
        Map<String, Object> body = prescription(memberId, drugId);
        RequestInput input = RequestSchemas.createInput(new ObjectMapper().valueToTree(body), key, Timestamps::now);
        List<Map.Entry<Integer, String>> answers = Parallel.atOnce(callers, caller -> {
            if (caller % 2 == 0) {
                Response answer = post(partner, body, key);
                return Map.entry(answer.statusCode(), answer.jsonPath().getString("requestId"));
            }
            RequestCreation.Outcome outcome = otherInstance.create(partner, input, key);
            return Map.entry(outcome.replay() ? 200 : 201, outcome.request().id.toString());
        });
        assertEquals(1, answers.stream().filter(answer -> answer.getKey() == 201).count(), answers.toString());
        assertEquals(callers - 1, answers.stream().filter(answer -> answer.getKey() == 200).count(), answers.toString());
        assertEquals(1, answers.stream().map(Map.Entry::getValue).distinct().count(), answers.toString());
        assertEquals(1, total(partner));
    }
}
