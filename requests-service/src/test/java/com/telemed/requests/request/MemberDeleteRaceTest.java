package com.telemed.requests.request;

import static com.telemed.requests.request.RequestFixtures.error;
import static com.telemed.requests.request.RequestFixtures.newDrugId;
import static com.telemed.requests.request.RequestFixtures.newPartner;
import static com.telemed.requests.request.RequestFixtures.post;
import static com.telemed.requests.request.RequestFixtures.prescription;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.telemed.requests.FakeNeighbours;
import com.telemed.requests.PatientNeighboursResource;
import com.telemed.testkit.quarkus.InfrastructureResource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 13, "Faults": a member is never deleted while a request for it is created. Each pair is a
 * create for member M (the real requests-service) and the delete of M as members-service runs it
 * (members-service/README.md, "Delete"): ask {@code POST /internal/requests/member-deletions}, and
 * on {@code hasRequests: false} delete the member (here: the fake members-service forgets it).
 * Afterwards, for every pair, either the member is gone, no request references it and the create
 * answered {@code 400 Member not found}; or the delete was refused (members-service answers
 * {@code 400 Cannot delete member with existing requests}) and the create's request exists. Never
 * both a deleted member and a request for it.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(PatientNeighboursResource.class)
class MemberDeleteRaceTest {

    @Inject
    FakeNeighbours neighbours;

    String partner;
    ExecutorService callers;

    @BeforeEach
    void setUp() {
        neighbours.reset();
        partner = newPartner();
        callers = Executors.newFixedThreadPool(16);
    }

    @AfterEach
    void tearDown() {
        neighbours.reset();
        callers.shutdownNow();
    }

    private String member(int index) {
        return neighbours.seedMember(partner, "Member", "No" + index, "member" + index + "+" + UUID.randomUUID() + "@example.com");
    }

    private String drug() {
        String drugId = newDrugId();
        neighbours.drug(drugId, "Semaglutide", List.of("0.25mg"), partner);
        return drugId;
    }

    /** members-service's delete after its 404 check: true when the member was deleted, false when refused. */
    private boolean delete(String memberId) {
        boolean hasRequests = given().contentType("application/json").body(Map.of("partnerId", partner, "memberId", memberId))
                .when().post("/internal/requests/member-deletions").then().statusCode(200).extract().path("hasRequests");
        if (!hasRequests) {
            neighbours.deleteMember(memberId);
        }
        return !hasRequests;
    }

    private List<String> requestsOf(String memberId) {
        return given().queryParam("partnerId", partner).queryParam("memberId", memberId)
                .when().get("/internal/requests/by-member").then().statusCode(200).extract().jsonPath().getList("requests.id");
    }

    /** The rule, for one pair. */
    private void assertOneOrTheOther(String memberId, boolean deleted, Response create) {
        if (deleted) {
            assertEquals(null, neighbours.member(memberId), "deleted at members-service");
            assertEquals(400, create.statusCode(), create.asString());
            assertEquals(error("Member not found"), create.jsonPath().getMap(""));
            assertEquals(List.of(), requestsOf(memberId), "no request for a deleted member");
        } else {
            assertEquals(memberId, neighbours.member(memberId).getString("id"), "kept at members-service");
            assertEquals(201, create.statusCode(), create.asString());
            assertEquals(List.of(create.jsonPath().getString("requestId")), requestsOf(memberId));
        }
    }

    /**
     * The window itself, every time: the create has its member (the lookup answered) and waits on
     * the catalogue when the delete asks and members-service deletes. The create must not insert.
     */
    @Test
    void aCreateThatFoundTheMemberBeforeTheDeleteInsertsNothingAfterIt() throws Exception {
        int pairs = 10;
        List<String> memberIds = new ArrayList<>();
        List<String> drugPaths = new ArrayList<>();
        List<Future<Response>> creates = new ArrayList<>();
        List<String> drugIds = new ArrayList<>();
        for (int index = 0; index < pairs; index++) {
            memberIds.add(member(index));
            drugIds.add(drug());
            drugPaths.add("/internal/drugs/" + drugIds.get(index));
        }
        Set<String> held = Set.copyOf(drugPaths);
        neighbours.hold(call -> held.contains(call.path()));
        for (int index = 0; index < pairs; index++) {
            Map<String, Object> body = prescription(memberIds.get(index), drugIds.get(index));
            creates.add(callers.submit(() -> post(partner, body)));
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> neighbours.held().size() == pairs);
        for (String memberId : memberIds) {
            assertEquals(1, neighbours.calls("GET", "/internal/members/" + memberId).size(), "the lookup was answered");
        }

        List<Boolean> deleted = new ArrayList<>();
        for (String memberId : memberIds) {
            deleted.add(delete(memberId));
        }
        neighbours.release();

        for (int index = 0; index < pairs; index++) {
            assertEquals(true, deleted.get(index), "no request yet: the delete goes ahead");
            assertOneOrTheOther(memberIds.get(index), true, creates.get(index).get(60, TimeUnit.SECONDS));
        }
    }

    /** Creates and deletes started together, in no order: whatever the interleaving, the rule holds. */
    @Test
    void concurrentCreatesAndDeletesOfOneMemberNeverLeaveARequestForADeletedMember() throws Exception {
        int pairs = 60;
        String drugId = drug();
        List<String> memberIds = new ArrayList<>();
        for (int index = 0; index < pairs; index++) {
            memberIds.add(member(index));
        }
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Response>> creates = new ArrayList<>();
        List<Future<Boolean>> deletes = new ArrayList<>();
        for (String memberId : memberIds) {
            Map<String, Object> body = prescription(memberId, drugId);
            creates.add(callers.submit(() -> {
                start.await();
                return post(partner, body);
            }));
            deletes.add(callers.submit(() -> {
                start.await();
                return delete(memberId);
            }));
        }
        start.countDown();

        int deleted = 0;
        for (int index = 0; index < pairs; index++) {
            boolean gone = deletes.get(index).get(60, TimeUnit.SECONDS);
            assertOneOrTheOther(memberIds.get(index), gone, creates.get(index).get(60, TimeUnit.SECONDS));
            deleted += gone ? 1 : 0;
        }
        // Every member either lost its delete or never got a request: the partner's requests are exactly the kept members'.
        Set<String> kept = new java.util.HashSet<>(memberIds);
        kept.removeIf(memberId -> neighbours.member(memberId) == null);
        assertEquals(pairs - deleted, kept.size());
        assertEquals(kept, RequestFixtures.list(partner, "limit=100").jsonPath().getList("requests.memberId")
                .stream().map(Object::toString).collect(Collectors.toSet()));
    }
}
