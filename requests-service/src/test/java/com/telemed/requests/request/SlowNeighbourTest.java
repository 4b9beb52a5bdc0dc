package com.telemed.requests.request;

import static com.telemed.requests.request.RequestFixtures.as;
import static com.telemed.requests.request.RequestFixtures.created;
import static com.telemed.requests.request.RequestFixtures.error;
import static com.telemed.requests.request.RequestFixtures.get;
import static com.telemed.requests.request.RequestFixtures.inlineMember;
import static com.telemed.requests.request.RequestFixtures.list;
import static com.telemed.requests.request.RequestFixtures.post;
import static com.telemed.requests.request.RequestFixtures.prescription;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.telemed.requests.FakeNeighbours;
import com.telemed.requests.PartnerWithDrugAndMember;
import com.telemed.requests.PatientNeighboursResource;
import com.telemed.requests.SmallPoolResource;
import com.telemed.testkit.quarkus.InfrastructureResource;
import com.telemed.testkit.quarkus.ManagementPort;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 13, "Faults": no database connection or lock is held across a call to another service.
 * The pool has {@link SmallPoolResource#MAX_SIZE} connections and gives up after one second, and
 * the neighbours hold their answers ({@link FakeNeighbours#hold}) while more calls than the pool
 * has connections wait on them: reads, readiness and other writes must still go through at once.
 * Had any waiting call kept a connection, the next one would fail after that second (or the
 * waiting calls would never all reach the neighbour); had a decision kept its row lock, a note on
 * the same request would wait for the catalogue.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(PatientNeighboursResource.class)
@WithTestResource(SmallPoolResource.class)
class SlowNeighbourTest extends PartnerWithDrugAndMember {

    private static final int WAITING = 2 * SmallPoolResource.MAX_SIZE + 1;
    private static final Duration PROMPTLY = Duration.ofSeconds(20);
    private static final Map<String, Object> PRESCRIPTION = Map.of("quantity", 30, "quantityUnits", "tablets",
            "daysSupply", 30, "directions", "One tablet daily", "refills", 1, "dispenseAsWritten", false);

    ExecutorService callers;

    @BeforeEach
    void setUp() {
        callers = Executors.newCachedThreadPool();
    }

    @AfterEach
    void tearDown() {
        neighbours.reset();
        callers.shutdownNow();
    }

    private Future<Response> inBackground(Supplier<Response> call) {
        return callers.submit(call::get);
    }

    private static Response answer(Future<Response> call) throws Exception {
        return call.get(60, TimeUnit.SECONDS);
    }

    /** Creates of every kind: keyed and not, by member id and inline. */
    private List<Future<Response>> creates(int count) {
        List<Future<Response>> creates = new ArrayList<>();
        for (int index = 0; index < count; index++) {
            Map<String, Object> body = prescription(memberId, drugId);
            if (index % 3 == 1) {
                body.remove("memberId");
                body.put("member", inlineMember("ada+" + UUID.randomUUID() + "@example.com"));
            }
            String key = index % 3 == 2 ? null : "key-" + UUID.randomUUID();
            creates.add(inBackground(() -> key == null ? post(partner, body) : post(partner, body, key)));
        }
        return creates;
    }

    /** What must keep working while the calls wait on a neighbour. */
    private void readsGoThrough(long requestsSoFar) {
        list(partner, "").then().statusCode(200).body("pagination.total", equalTo((int) requestsSoFar));
        ManagementPort.given().when().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"));
    }

    @Test
    void createsWaitingForMembersServiceHoldNoConnection() throws Exception {
        neighbours.hold(FakeNeighbours::toMembers);
        List<Future<Response>> creates = creates(WAITING);
        await().atMost(PROMPTLY).until(() -> neighbours.held().size() == WAITING);

        readsGoThrough(0);

        neighbours.release();
        for (Future<Response> create : creates) {
            assertEquals(201, answer(create).statusCode(), answer(create).asString());
        }
        readsGoThrough(WAITING);
    }

    @Test
    void createsWaitingForCatalogueServiceHoldNoConnection() throws Exception {
        neighbours.hold(FakeNeighbours::toCatalogue);
        List<Future<Response>> creates = creates(WAITING);
        await().atMost(PROMPTLY).until(() -> neighbours.held().size() == WAITING);

        readsGoThrough(0);

        neighbours.release();
        for (Future<Response> create : creates) {
            assertEquals(201, answer(create).statusCode(), answer(create).asString());
        }
        readsGoThrough(WAITING);
    }

    private String prescriber() {
        return given().contentType("application/json")
                .body(Map.of("name", "Dr Who", "email", "who+" + UUID.randomUUID() + "@example.com"))
                .when().post("/ops/v1/prescribers").then().statusCode(201).extract().path("prescriber.id");
    }

    private String itemOf(String requestId) {
        return get(partner, requestId).then().statusCode(200).extract().path("lineItems[0].itemId");
    }

    private static Response ops(String path, Object body) {
        return given().contentType("application/json").body(body).when().post("/ops/v1/requests/" + path);
    }

    private static Map<String, Object> approval(String prescriberId, String drugId) {
        Map<String, Object> prescription = new LinkedHashMap<>(PRESCRIPTION);
        prescription.put("skuId", FakeNeighbours.skuId(drugId, 0));
        return Map.of("prescriberId", prescriberId, "prescription", prescription);
    }

    @Test
    void decisionsWaitingForCatalogueServiceHoldNoLockAndNoConnection() throws Exception {
        String prescriberId = prescriber();
        List<String> requestIds = new ArrayList<>();
        for (int index = 0; index < WAITING; index++) {
            requestIds.add(created(partner, prescription(memberId, drugId)));
        }
        List<String> itemIds = requestIds.stream().map(this::itemOf).toList();

        neighbours.hold(FakeNeighbours::toCatalogue);
        List<Future<Response>> approvals = new ArrayList<>();
        for (int index = 0; index < WAITING; index++) {
            String path = requestIds.get(index) + "/items/" + itemIds.get(index) + "/approve";
            approvals.add(inBackground(() -> ops(path, approval(prescriberId, drugId))));
        }
        await().atMost(PROMPTLY).until(() -> neighbours.held().size() == WAITING);

        readsGoThrough(WAITING);
        given().when().get("/ops/v1/review/queue").then().statusCode(200);
        // The request a waiting approval is about is not locked: another decision on it goes through.
        ops(requestIds.get(0) + "/notes", Map.of("prescriberId", prescriberId, "text", "Checked the history"))
                .then().statusCode(200).body("request.status", equalTo("pending"));

        neighbours.release();
        for (Future<Response> approval : approvals) {
            Response answer = answer(approval);
            assertEquals(200, answer.statusCode(), answer.asString());
            assertEquals("approved", answer.jsonPath().getString("request.lineItems[0].status"));
        }
        list(partner, "status=approved").then().statusCode(200).body("pagination.total", equalTo(WAITING));
    }

    /**
     * The item was denied while its approval waited on the catalogue: the approval answers what it
     * answers for a denied item, and nothing of it is stored.
     */
    @Test
    void aDecisionWaitingForTheCatalogueSeesWhatChangedMeanwhile() throws Exception {
        String prescriberId = prescriber();
        String requestId = created(partner, prescription(memberId, drugId));
        String itemId = itemOf(requestId);

        neighbours.hold(FakeNeighbours::toCatalogue);
        Future<Response> approval = inBackground(() -> ops(requestId + "/items/" + itemId + "/approve", approval(prescriberId, drugId)));
        await().atMost(PROMPTLY).until(() -> neighbours.held().size() == 1);

        Future<Response> denial = inBackground(() -> ops(requestId + "/items/" + itemId + "/deny",
                Map.of("prescriberId", prescriberId, "reason", "Contraindicated")));
        Response denied = denial.get(20, TimeUnit.SECONDS);
        assertEquals(200, denied.statusCode(), denied.asString());
        assertEquals("denied", denied.jsonPath().getString("request.lineItems[0].status"));

        neighbours.release();
        Response approved = answer(approval);
        assertEquals(400, approved.statusCode());
        assertEquals(error("Item status is 'denied', expected 'pending' or 'call_requested'"), approved.jsonPath().getMap(""));
        neighbours.reset();
        as(partner).when().get("/v1/requests/" + requestId).then().statusCode(200)
                .body("lineItems[0].status", equalTo("denied"))
                .body("prescriptionRecords", equalTo(List.of()));
    }
}
