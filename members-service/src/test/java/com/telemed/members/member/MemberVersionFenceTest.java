package com.telemed.members.member;

import static com.telemed.members.member.MemberFixtures.PUT_FIELDS;
import static com.telemed.members.member.MemberFixtures.READ_FIELDS;
import static com.telemed.members.member.MemberFixtures.auditOf;
import static com.telemed.members.member.MemberFixtures.create;
import static com.telemed.members.member.MemberFixtures.delete;
import static com.telemed.members.member.MemberFixtures.get;
import static com.telemed.members.member.MemberFixtures.memberBody;
import static com.telemed.members.member.MemberFixtures.newPartner;
import static com.telemed.members.member.MemberFixtures.put;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.members.FakeRequestsService;
import com.telemed.members.FakeRequestsService.Fence;
import com.telemed.members.FakeRequestsServiceResource;
import com.telemed.testkit.quarkus.InfrastructureResource;
import com.telemed.testkit.quarkus.ServiceDatabase;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.net.ConnectException;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The member's version and the fence before an update (README, "Version and fence"): every change
 * moves the version by one, every {@code PUT} tells requests-service the next version before it
 * commits it, holds nothing while it asks, fails closed when it cannot, and never fences for a member
 * it does not find. The fence is checked as requests-service sees it: {@link FakeRequestsService}
 * reads the member through {@code GET /internal/members/{id}} while it takes each fence.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = FakeRequestsServiceResource.class, scope = TestResourceScope.GLOBAL)
class MemberVersionFenceTest {

    private static final String UNAVAILABLE = "{\"error\":\"Service Unavailable\"}";
    private static final String NOT_FOUND = "{\"error\":\"Member not found\"}";

    @Inject
    FakeRequestsService requestsService;

    @BeforeEach
    @AfterEach
    void reset() {
        requestsService.reset();
    }

    private static Map<String, Object> internal(String partnerId, String id) {
        return given().queryParam("partnerId", partnerId).when().get("/internal/members/" + id)
                .then().statusCode(200).extract().path("member");
    }

    private static long version(String partnerId, String id) {
        return ((Number) internal(partnerId, id).get("version")).longValue();
    }

    /**
     * find-or-create as requests-service asks it: a reuse is answered with its fence, which requests-service
     * records itself (no call reaches the fake), then asked again naming it.
     */
    private static Response findOrCreate(String partnerId, String member) {
        Response first = findOrCreateAsk(partnerId, member, "");
        Map<String, Object> fence = first.statusCode() == 200 ? first.jsonPath().getMap("fence") : null;
        if (fence == null) {
            return first;
        }
        return findOrCreateAsk(partnerId, member, ", \"fenced\": {\"memberId\": \"" + fence.get("memberId") + "\", \"version\": "
                + fence.get("version") + "}");
    }

    private static Response findOrCreateAsk(String partnerId, String member, String fenced) {
        return given().contentType(ContentType.JSON)
                .body("{\"partnerId\": \"" + partnerId + "\", \"member\": " + member + fenced + "}")
                .when().post("/internal/members/find-or-create");
    }

    /**
     * Each fence keeps the member's committed version as the database holds it while the fence is
     * taken (plain JDBC: quick, so that many concurrent fences are each probed well within the
     * client's read timeout).
     */
    private void probeVersions() {
        requestsService.probeFences((partnerId, memberId) -> ServiceDatabase.count(
                "SELECT version FROM members WHERE id = ? AND partner_id = ?", UUID.fromString(memberId), partnerId));
    }

    private static void await(BooleanSupplier condition, String what) {
        org.awaitility.Awaitility.await(what).atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                .until(condition::getAsBoolean);
    }

    @Test
    void eachPutFencesItsNewVersionBeforeItCommits() {
        String partnerId = newPartner();
        String id = create(partnerId, "Vera", "Version", "vera@example.com");
        assertEquals(1, version(partnerId, id), "a new member starts at version 1");
        probeVersions();

        Map<String, Object> answered = put(partnerId, id, "{\"state\": \"NY\"}").then().statusCode(200)
                .extract().path("member");
        assertEquals(PUT_FIELDS, answered.keySet(), "the partner's answer has no version");
        assertEquals(2, version(partnerId, id));
        // Taken while the member was still at version 1: the fence preceded the commit.
        assertEquals(List.of(new Fence(partnerId, id, 2, 1L)), requestsService.fences());

        put(partnerId, id, "{\"status\": \"paused\"}").then().statusCode(200);
        assertEquals(3, version(partnerId, id));
        assertEquals(List.of(new Fence(partnerId, id, 2, 1L), new Fence(partnerId, id, 3, 2L)),
                requestsService.fences());
        assertEquals(2, requestsService.calls("POST", FakeRequestsService.MEMBER_FENCES).size(), "one fence per PUT");

        Map<String, Object> member = internal(partnerId, id);
        assertEquals("NY", member.get("state"));
        assertEquals("paused", member.get("status"));
        assertEquals(READ_FIELDS, get(partnerId, id).then().statusCode(200).extract().as(Map.class).keySet(),
                "the partner's read has no version");
    }

    /** Nothing is held while requests-service takes the fence: the row can be read, locked and deleted meanwhile. */
    @Test
    void holdsNoLockWhileTheFenceIsTakenAndAMemberDeletedMeanwhileIsNotFound() throws Exception {
        String partnerId = newPartner();
        String id = create(partnerId, "Held", "Fence", "held@example.com");
        requestsService.hold(call -> call.path().equals(FakeRequestsService.MEMBER_FENCES));
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<Response> update = pool.submit(() -> put(partnerId, id, "{\"state\": \"NY\"}"));
            await(() -> requestsService.held().size() == 1, "the fence to arrive");

            assertEquals(1, version(partnerId, id), "not committed before the fence is answered");
            // DELETE locks the row: it would wait for a lock held across the call.
            assertEquals(204, pool.submit(() -> delete(partnerId, id).statusCode()).get(10, TimeUnit.SECONDS));

            requestsService.release();
            Response answer = update.get(10, TimeUnit.SECONDS);
            assertEquals(404, answer.statusCode());
            assertEquals(NOT_FOUND, answer.body().asString());
        } finally {
            requestsService.release();
            pool.shutdownNow();
        }
    }

    @Test
    void aFenceThatCannotBeTakenFailsThePutClosedAndChangesNothing() throws Exception {
        String partnerId = newPartner();
        String id = create(partnerId, "Closed", "Fail", "closed@example.com");
        Map<String, Object> before = internal(partnerId, id);
        String body = "{\"firstName\": \"Changed\", \"state\": \"NY\", \"status\": \"paused\"}";

        for (FakeRequestsService.Failure failure : FakeRequestsService.Failure.values()) {
            requestsService.reset();
            requestsService.failFences(failure);
            put(partnerId, id, body).then().statusCode(503).contentType(ContentType.JSON).body(equalTo(UNAVAILABLE));
            assertTrue(requestsService.calls("POST", FakeRequestsService.MEMBER_FENCES).size() >= 1, failure.name());
            assertEquals(before, internal(partnerId, id), failure + ": fields, updatedAt and version unchanged");
        }

        // requests-service unreachable: connection refused.
        requestsService.reset();
        int port = URI.create(ConfigProvider.getConfig().getValue("platform.service-urls.requests-service", String.class)).getPort();
        requestsService.stop();
        try {
            await(() -> refused(port), "the fake to stop listening");
            put(partnerId, id, body).then().statusCode(503).contentType(ContentType.JSON).body(equalTo(UNAVAILABLE));
        } finally {
            startAgain();
        }
        assertEquals(before, internal(partnerId, id), "unreachable: nothing changed");
        assertEquals(List.of(), auditOf(id), "no status change recorded");

        requestsService.reset();
        put(partnerId, id, body).then().statusCode(200);
        assertEquals(2, version(partnerId, id), "failed fences consumed no version");
    }

    private static boolean refused(int port) {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            return false;
        } catch (ConnectException e) {
            return true;
        } catch (Exception e) {
            return false;
        }
    }

    /** Serves again on the same port (its previous server may take a moment to let it go). */
    private void startAgain() {
        org.awaitility.Awaitility.await("the fake requests-service serving again").atMost(Duration.ofSeconds(5))
                .pollInterval(Duration.ofMillis(100)).until(() -> {
                    try {
                        requestsService.start();
                        return true;
                    } catch (Exception e) {
                        requestsService.stop();
                        return false;
                    }
                });
    }

    @Test
    void anUnknownForeignOrMalformedIdIsNotFoundAndNothingIsFenced() {
        String owner = newPartner();
        String id = create(owner, "Owned", "Elsewhere", "owned@example.com");
        // Even with requests-service failing: a foreign member never looks "unavailable".
        requestsService.failFences(FakeRequestsService.Failure.ERROR_500);
        String partnerId = newPartner();
        for (String wrong : List.of(id, UUID.randomUUID().toString(), "not-a-uuid")) {
            put(partnerId, wrong, "{\"state\": \"NY\"}").then().statusCode(404).contentType(ContentType.JSON)
                    .body(equalTo(NOT_FOUND));
        }
        assertEquals(List.of(), requestsService.calls(), "requests-service is never asked");
        assertEquals(1, version(owner, id));
        assertEquals("CA", internal(owner, id).get("state"));
    }

    /** Each committed version was fenced while the member was still at the version before it. */
    @Test
    void concurrentPutsAllSucceedAndEveryCommittedVersionWasFencedFirst() throws Exception {
        String partnerId = newPartner();
        String id = create(partnerId, "Many", "Writers", "many@example.com");
        probeVersions();
        int callers = 8;
        ExecutorService pool = Executors.newFixedThreadPool(callers);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<Integer>> answers = new ArrayList<>();
            for (int index = 0; index < callers; index++) {
                String body = "{\"firstName\": \"Writer" + index + "\", \"status\": \"" + (index % 2 == 0 ? "paused" : "active") + "\"}";
                answers.add(pool.submit(() -> {
                    start.await();
                    return put(partnerId, id, body).statusCode();
                }));
            }
            start.countDown();
            for (Future<Integer> answer : answers) {
                assertEquals(200, answer.get(60, TimeUnit.SECONDS));
            }
        } finally {
            pool.shutdownNow();
        }

        assertEquals(1 + callers, version(partnerId, id));
        List<Fence> fences = requestsService.fences();
        assertTrue(fences.size() >= callers, "at least one fence per PUT: " + fences.size());
        fences.forEach(fence -> {
            assertEquals(partnerId, fence.partnerId());
            assertEquals(id, fence.memberId());
        });
        for (long committed = 2; committed <= 1 + callers; committed++) {
            long version = committed;
            assertTrue(fences.stream().anyMatch(fence -> fence.version() == version
                            && Long.valueOf(version - 1).equals(fence.probed())),
                    "version " + version + " fenced while the member was at " + (version - 1) + ": " + fences);
        }
    }

    /**
     * find-or-create's reuse is a change too: it is made only once asked naming its fence (which
     * requests-service, the only caller, records itself: no call comes back to it from here).
     */
    @Test
    void findOrCreateStartsAtOneAndMovesTheVersionOnlyWhenAskedWithItsFence() {
        String partnerId = newPartner();
        Map<String, Object> created = findOrCreate(partnerId, memberBody("Fio", "Found", "fio@example.com"))
                .then().statusCode(201).extract().path("member");
        String id = (String) created.get("id");
        assertEquals(1, created.get("version"));
        assertEquals(1, version(partnerId, id));

        findOrCreateAsk(partnerId, memberBody("Fiona", "Found", "FIO@example.com"), "").then().statusCode(200)
                .body("member", nullValue()).body("fence.memberId", equalTo(id)).body("fence.version", equalTo(2));
        assertEquals(1, version(partnerId, id), "nothing changed before the fence");
        findOrCreate(partnerId, memberBody("Fiona", "Found", "FIO@example.com")).then().statusCode(200)
                .body("member.version", equalTo(2)).body("member.firstName", equalTo("Fiona"));
        assertEquals(2, version(partnerId, id));
        assertEquals(List.of(), requestsService.calls(), "requests-service records find-or-create's fences itself");

        put(partnerId, id, "{\"state\": \"NY\"}").then().statusCode(200);
        assertEquals(List.of(new Fence(partnerId, id, 3, null)), requestsService.fences());

        findOrCreate(partnerId, memberBody("Fiona", "Again", "fio@example.com")).then().statusCode(200)
                .body("member.version", equalTo(4));
        assertEquals(1, requestsService.calls().size(), "still only the PUT's fence");
        given().contentType(ContentType.JSON).body("{\"partnerId\": \"" + partnerId + "\", \"memberIds\": [\"" + id + "\"]}")
                .when().post("/internal/members/batch").then().statusCode(200).body("members[0].version", equalTo(4));
    }

    /**
     * A PUT overtaken by another change after every fence (here a find-or-create of the member,
     * made while requests-service takes the fence) starts over each time and gives up with 503
     * after {@value MemberService#UPDATE_ATTEMPTS} attempts, having changed nothing. The overtaking
     * change runs once per fence, however often the fence is sent: a loaded build once took the
     * find-or-create past the client's 2 s read timeout, and the retried fence overtook the PUT twice.
     */
    @Test
    void aPutOvertakenAtEveryAttemptGivesUpWith503() {
        String partnerId = newPartner();
        String id = create(partnerId, "Over", "Taken", "over@example.com");
        // The first fence is answered only once the client has timed out and sent it again, as on a
        // loaded machine (a find-or-create slower than the tests' 500 ms read timeout): it is still
        // the one fence, overtaken once.
        AtomicBoolean first = new AtomicBoolean(true);
        requestsService.overtakeFences((partner, member) -> {
            Object version = findOrCreate(partner, memberBody("Over", "Taken", "over@example.com"))
                    .then().statusCode(200).extract().path("member.version");
            if (first.getAndSet(false)) {
                await(() -> requestsService.calls("POST", FakeRequestsService.MEMBER_FENCES).size() == 2,
                        "the first fence sent again");
            }
            return version;
        });

        put(partnerId, id, "{\"state\": \"NY\"}").then().statusCode(503).body(equalTo(UNAVAILABLE));

        List<Fence> fences = requestsService.fences();
        assertEquals(MemberService.UPDATE_ATTEMPTS, fences.size());
        for (int attempt = 0; attempt < fences.size(); attempt++) {
            assertEquals(2 + attempt, fences.get(attempt).version(), "each attempt fences the version after the one it read");
        }
        assertEquals(1 + MemberService.UPDATE_ATTEMPTS, version(partnerId, id), "only the find-or-creates committed");
        assertEquals("CA", internal(partnerId, id).get("state"));

        requestsService.reset();
        put(partnerId, id, "{\"state\": \"NY\"}").then().statusCode(200);
        assertEquals(2 + MemberService.UPDATE_ATTEMPTS, version(partnerId, id));
    }
}
