package com.telemed.requests.request;

import static com.telemed.requests.request.RequestFixtures.inlineMember;
import static com.telemed.requests.request.RequestFixtures.list;
import static com.telemed.requests.request.RequestFixtures.newDrugId;
import static com.telemed.requests.request.RequestFixtures.newPartner;
import static com.telemed.requests.request.RequestFixtures.post;
import static com.telemed.requests.request.RequestFixtures.prescription;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import com.telemed.requests.FakeNeighbours;
import com.telemed.requests.FakeNeighboursResource;
import com.telemed.testkit.quarkus.InfrastructureResource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Idempotency of POST /v1/requests (partner-api.md, Requests; decisions.md, Requests). */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(FakeNeighboursResource.class)
class RequestIdempotencyTest {

    @Inject
    FakeNeighbours neighbours;

    String partner;
    String drugId;
    String memberId;
    String key;

    @BeforeEach
    void setUp() {
        neighbours.reset();
        partner = newPartner();
        drugId = newDrugId();
        neighbours.drug(drugId, "Semaglutide", List.of("0.25mg", "0.5mg"), partner);
        memberId = neighbours.seedMember(partner, "Grace", "Hopper", "grace+" + UUID.randomUUID() + "@example.com");
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
    void concurrentCreatesWithOneKeyMakeOneRequest() throws Exception {
        int callers = 20;
        Map<String, Object> body = inlineBody();
        ExecutorService pool = Executors.newFixedThreadPool(callers);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<Response>> answers = new ArrayList<>();
            for (int index = 0; index < callers; index++) {
                answers.add(pool.submit(() -> {
                    start.await();
                    return post(partner, body, key);
                }));
            }
            start.countDown();
            int created = 0;
            int replays = 0;
            Set<String> requestIds = new HashSet<>();
            for (Future<Response> answer : answers) {
                Response response = answer.get();
                if (response.statusCode() == 201) {
                    created++;
                } else if (response.statusCode() == 200) {
                    replays++;
                    assertEquals(true, response.jsonPath().getBoolean("idempotentReplay"));
                } else {
                    throw new AssertionError("unexpected " + response.statusCode() + " " + response.asString());
                }
                requestIds.add(response.jsonPath().getString("requestId"));
            }
            assertEquals(1, created, "one create");
            assertEquals(callers - 1, replays, "the others replay");
            assertEquals(1, requestIds.size(), "all answers name one request: " + requestIds);
            assertEquals(1, total(partner));
            assertEquals(1, list(partner, "").jsonPath().getList("requests").size());
        } finally {
            pool.shutdownNow();
        }
    }
}
