package com.telemed.members.requests;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.testkit.time.Milliseconds;
import com.telemed.testkit.http.FakeNeighbour.Call;
import com.telemed.testkit.http.FakeNeighbour.Failure;
import com.telemed.members.FakeRequestsService;
import com.telemed.members.FakeRequestsServiceResource;
import com.telemed.testkit.http.FakeNeighbour;
import com.telemed.testkit.quarkus.InfrastructureResource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The contract members-service holds requests-service to, against a real HTTP server on loopback
 * ({@link FakeRequestsService}): the exact calls, the parsing of the answers, one call per page,
 * and the timeout, retry and failure rules of {@link RequestsServiceClient} (the circuit breaker
 * of the platform's one policy is tested in platform-commons, RemoteServiceTest).
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = FakeRequestsServiceResource.class, scope = TestResourceScope.GLOBAL)
class RequestsClientContractTest {

    private static final long READ_TIMEOUT_MS = FakeNeighbour.READ_TIMEOUT_MS;

    @Inject
    FakeRequestsService requestsService;

    @BeforeEach
    void reset() {
        requestsService.reset();
    }

    /** No failure outlives its test: the other classes' updates now call requests-service too. */
    @AfterEach
    void forgetFailures() {
        requestsService.reset();
    }

    private static String newPartner() {
        return "partner-" + UUID.randomUUID();
    }

    private static String create(String partnerId, String email) {
        String id = given().header("X-Partner-Id", partnerId).contentType(ContentType.JSON).body("""
                        {"firstName": "Req", "lastName": "Client", "email": "%s", "dateOfBirth": "1990-04-01",
                         "state": "CA", "address": {"street1": "1 Main St", "city": "Springfield", "state": "CA",
                         "zipCode": "90210"}}""".formatted(email))
                .post("/v1/members").then().statusCode(201).extract().path("member.id");
        Milliseconds.awaitNext();
        return id;
    }

    private static Response get(String partnerId, String path) {
        return given().header("X-Partner-Id", partnerId).get(path);
    }

    private static Response put(String partnerId, String memberId, String body) {
        return given().header("X-Partner-Id", partnerId).contentType(ContentType.JSON).body(body)
                .put("/v1/members/" + memberId);
    }

    private static JsonObject summary(String id, String drugId, String status, String createdAt) {
        return new JsonObject().put("id", id).put("drugId", drugId).put("prescriptionName", drugId == null ? null : "Rx " + drugId)
                .put("dosage", drugId == null ? null : "0.25 mg").put("status", status).put("caseNotes", null)
                .put("createdAt", createdAt).put("updatedAt", createdAt);
    }

    /** requests-service refuses a call without a proof: every call carries one for its own target. */
    @Test
    void everyCallCarriesAServiceProof() {
        String partnerId = newPartner();
        String memberId = create(partnerId, "proof@example.com");
        requestsService.clearCalls();

        get(partnerId, "/v1/members/" + memberId).then().statusCode(200);
        put(partnerId, memberId, "{\"state\": \"NY\"}").then().statusCode(200);
        given().header("X-Partner-Id", partnerId).delete("/v1/members/" + memberId).then().statusCode(204);

        assertEquals(List.of(), requestsService.unproven());
        assertEquals(List.of("POST /internal/requests/summaries", "POST /internal/requests/member-fences",
                        "POST /internal/requests/member-deletions"),
                requestsService.calls().stream().map(call -> call.method() + " " + call.path()).toList());
    }

    @Test
    void asksForSummariesWithTheExactBodyAndShowsTheAnswerAsIs() {
        String partnerId = newPartner();
        String memberId = create(partnerId, "one@example.com");
        String newer = UUID.randomUUID().toString();
        String older = UUID.randomUUID().toString();
        JsonArray entries = new JsonArray()
                .add(summary(newer, "semaglutide", "approved", "2026-11-21T09:30:00.120Z"))
                .add(summary(older, null, "pending", "2026-11-20T08:00:00.000Z"));
        requestsService.summaries(partnerId, memberId, entries);
        requestsService.clearCalls();

        List<Map<String, Object>> requests = get(partnerId, "/v1/members/" + memberId).then().statusCode(200)
                .extract().path("requests");

        assertEquals(entries.getList().stream().map(e -> ((JsonObject) e).getMap()).toList().toString(),
                requests.toString(), "every field, in contract order, newest first");
        List<Call> calls = requestsService.calls();
        assertEquals(1, calls.size());
        Call call = calls.get(0);
        assertEquals("POST", call.method());
        assertEquals("/internal/requests/summaries", call.path());
        assertEquals(Map.of(), call.query());
        assertTrue(call.contentType().startsWith("application/json"), call.contentType());
        assertEquals(new JsonObject().put("partnerId", partnerId).put("memberIds", new JsonArray().add(memberId))
                        .put("limitPerMember", 100), call.json());
        assertEquals("{\"partnerId\":\"" + partnerId + "\",\"memberIds\":[\"" + memberId + "\"],\"limitPerMember\":100}",
                call.body());
    }

    @Test
    void theListAsksForTheNewestTenPerMemberAndShowsNoMore() {
        String partnerId = newPartner();
        String memberId = create(partnerId, "many@example.com");
        JsonArray twelve = new JsonArray();
        for (int i = 0; i < 12; i++) {
            twelve.add(summary(UUID.randomUUID().toString(), "drug-" + i, "pending", "2026-11-21T09:30:%02d.000Z".formatted(59 - i))
                    .put("caseNotes", "notes " + i));
        }
        requestsService.summaries(partnerId, memberId, twelve);
        requestsService.clearCalls();

        List<String> listed = get(partnerId, "/v1/members").then().statusCode(200).extract().path("members[0].requests.id");
        assertEquals(twelve.stream().limit(10).map(entry -> ((JsonObject) entry).getString("id")).toList(), listed,
                "the newest ten, in the answer's order, even from an answer that sends more");
        assertEquals(List.of(new JsonObject().put("partnerId", partnerId).put("memberIds", new JsonArray().add(memberId))
                .put("limitPerMember", 10)), requestsService.calls().stream().map(Call::json).toList());
        assertEquals("notes 0", get(partnerId, "/v1/members").then().extract().path("members[0].requests[0].caseNotes"),
                "caseNotes are part of the list's request summaries (partner-api.md)");

        requestsService.clearCalls();
        assertEquals(12, get(partnerId, "/v1/members/" + memberId).then().statusCode(200)
                .extract().<List<Object>>path("requests").size(), "the single read asks for up to 100");
        assertEquals(100, requestsService.calls().get(0).json().getInteger("limitPerMember"));
    }

    @Test
    void aPageOfTwentyMembersIsOneCall() {
        String partnerId = newPartner();
        List<String> created = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            created.add(create(partnerId, "m" + i + "@example.com"));
        }
        Collections.reverse(created);
        requestsService.summaries(partnerId, created.get(3), new JsonArray()
                .add(summary(UUID.randomUUID().toString(), "finasteride", "pending", "2026-11-21T09:30:00.000Z")));
        // Another partner's summaries for the same member are never asked for, so never shown.
        requestsService.summaries(newPartner(), created.get(4), new JsonArray()
                .add(summary(UUID.randomUUID().toString(), "x", "pending", "2026-11-21T09:30:00.000Z")));
        requestsService.clearCalls();

        Response page = get(partnerId, "/v1/members?limit=20");
        page.then().statusCode(200).body("members.id", equalTo(created))
                .body("members[3].requests[0].drugId", equalTo("finasteride"))
                .body("members[4].requests", equalTo(List.of()));
        List<Call> calls = requestsService.calls();
        assertEquals(1, calls.size(), "one call per page, never one per member");
        assertEquals(new JsonArray(new ArrayList<Object>(created)), calls.get(0).json().getJsonArray("memberIds"));

        requestsService.clearCalls();
        get(partnerId, "/v1/members?limit=5&page=2").then().statusCode(200);
        assertEquals(1, requestsService.calls().size());
        assertEquals(new JsonArray(new ArrayList<Object>(created.subList(5, 10))),
                requestsService.calls().get(0).json().getJsonArray("memberIds"));

        requestsService.clearCalls();
        get(newPartner(), "/v1/members").then().statusCode(200).body("members", equalTo(List.of()));
        get(partnerId, "/v1/members?page=9").then().statusCode(200).body("members", equalTo(List.of()));
        assertEquals(List.of(), requestsService.calls(), "an empty page asks nothing");
    }

    @Test
    void asksForTheDeleteWithTheExactBody() {
        String partnerId = newPartner();
        String memberId = create(partnerId, "has@example.com");
        requestsService.hasRequests(partnerId, memberId);
        requestsService.clearCalls();

        given().header("X-Partner-Id", partnerId).delete("/v1/members/" + memberId).then().statusCode(400);

        List<Call> calls = requestsService.calls();
        assertEquals(1, calls.size());
        assertEquals("POST", calls.get(0).method());
        assertEquals("/internal/requests/member-deletions", calls.get(0).path());
        assertEquals(Map.of(), calls.get(0).query());
        assertTrue(calls.get(0).contentType().startsWith("application/json"), calls.get(0).contentType());
        assertEquals(new JsonObject().put("partnerId", partnerId).put("memberId", memberId), calls.get(0).json());
    }

    /** The fence before an update: the exact body, answered 204 with no body. */
    @Test
    void sendsTheFenceWithTheExactBody() {
        String partnerId = newPartner();
        String memberId = create(partnerId, "fence@example.com");
        requestsService.clearCalls();

        put(partnerId, memberId, "{\"state\": \"NY\"}").then().statusCode(200);

        List<Call> calls = requestsService.calls();
        assertEquals(1, calls.size());
        assertEquals("POST", calls.get(0).method());
        assertEquals("/internal/requests/member-fences", calls.get(0).path());
        assertEquals(Map.of(), calls.get(0).query());
        assertTrue(calls.get(0).contentType().startsWith("application/json"), calls.get(0).contentType());
        assertEquals("{\"partnerId\":\"" + partnerId + "\",\"memberId\":\"" + memberId + "\",\"version\":2}",
                calls.get(0).body());
        assertEquals(List.of(new FakeRequestsService.Fence(partnerId, memberId, 2, null)), requestsService.fences());
    }

    /** Idempotent (requests-service keeps the highest fence), so retried after a transient failure. */
    @Test
    void aFenceIsRetriedOnceAndAnyOtherFailureIsServiceUnavailable() {
        String partnerId = newPartner();
        String memberId = create(partnerId, "fence-retry@example.com");
        requestsService.clearCalls();

        requestsService.failNext(Failure.UNAVAILABLE_503);
        put(partnerId, memberId, "{\"state\": \"NY\"}").then().statusCode(200);
        assertEquals(2, requestsService.calls().size());

        requestsService.clearCalls();
        requestsService.failNext(Failure.ERROR_500);
        put(partnerId, memberId, "{\"state\": \"WA\"}").then().statusCode(503).contentType(ContentType.JSON)
                .body(equalTo("{\"error\":\"Service Unavailable\"}"));
        assertEquals(1, requestsService.calls().size(), "a 500 is not retried");

        requestsService.clearCalls();
        requestsService.failNext(Failure.NOT_SERVED);
        put(partnerId, memberId, "{\"state\": \"WA\"}").then().statusCode(503)
                .body(equalTo("{\"error\":\"Service Unavailable\"}"));
        assertEquals(1, requestsService.calls().size(), "a missing route is an outage, not an answer");
    }

    @Test
    void summariesNotServedAreServiceUnavailableAndNotRetried() {
        String partnerId = newPartner();
        String memberId = create(partnerId, "ns@example.com");
        requestsService.failAlways(Failure.NOT_SERVED);

        // The endpoint never answers 404: a missing route is an outage, never "no requests".
        get(partnerId, "/v1/members/" + memberId).then().statusCode(503).body("error", equalTo("Service Unavailable"));
        get(partnerId, "/v1/members").then().statusCode(503).body("error", equalTo("Service Unavailable"));
        assertEquals(2, requestsService.calls().size());
    }

    @Test
    void aServerErrorIsServiceUnavailableAndNotRetried() {
        String partnerId = newPartner();
        String memberId = create(partnerId, "err@example.com");
        requestsService.failAlways(Failure.ERROR_500);

        get(partnerId, "/v1/members/" + memberId).then().statusCode(503).contentType(ContentType.JSON)
                .body("error", equalTo("Service Unavailable"));
        get(partnerId, "/v1/members").then().statusCode(503).body("error", equalTo("Service Unavailable"));
        assertEquals(2, requestsService.calls().size());
    }

    @Test
    void oneTransientFailureIsRetriedOnce() {
        String partnerId = newPartner();
        String memberId = create(partnerId, "retry@example.com");
        requestsService.summaries(partnerId, memberId, new JsonArray()
                .add(summary(UUID.randomUUID().toString(), "sildenafil", "pending", "2026-11-21T09:30:00.000Z")));
        requestsService.clearCalls();

        requestsService.failNext(Failure.UNAVAILABLE_503);
        get(partnerId, "/v1/members/" + memberId).then().statusCode(200).body("requests[0].drugId", equalTo("sildenafil"));
        assertEquals(2, requestsService.calls().size());

        requestsService.clearCalls();
        requestsService.failNext(Failure.SLOW);
        long started = System.nanoTime();
        get(partnerId, "/v1/members/" + memberId).then().statusCode(200).body("requests[0].drugId", equalTo("sildenafil"));
        long tookMs = (System.nanoTime() - started) / 1_000_000;
        assertEquals(2, requestsService.calls().size());
        assertTrue(tookMs >= READ_TIMEOUT_MS, "waited for the timeout: " + tookMs);

        requestsService.clearCalls();
        requestsService.failNext(Failure.SLOW);
        given().header("X-Partner-Id", partnerId).delete("/v1/members/" + memberId).then().statusCode(204);
        assertEquals(2, requestsService.calls().size(), "the member deletion is retried too");
    }

    @Test
    void givesUpAfterTwoTimeoutsWithinTheirBound() {
        String partnerId = newPartner();
        String memberId = create(partnerId, "slow@example.com");
        requestsService.failAlways(Failure.SLOW);

        long started = System.nanoTime();
        get(partnerId, "/v1/members/" + memberId).then().statusCode(503).body("error", equalTo("Service Unavailable"));
        long tookMs = (System.nanoTime() - started) / 1_000_000;
        assertEquals(2, requestsService.calls().size());
        assertTrue(tookMs >= 2 * READ_TIMEOUT_MS && tookMs < 2 * READ_TIMEOUT_MS + 1_000, "took " + tookMs);
    }
}
