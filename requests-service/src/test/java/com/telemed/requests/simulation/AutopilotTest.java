package com.telemed.requests.simulation;

import static com.telemed.requests.request.RequestFixtures.issue;
import static com.telemed.requests.simulation.SandboxFixtures.events;
import static com.telemed.requests.simulation.SandboxFixtures.types;
import static com.telemed.testkit.quarkus.ServiceDatabase.count;
import static com.telemed.testkit.quarkus.ServiceDatabase.rows;
import static com.telemed.testkit.quarkus.ServiceDatabase.update;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.telemed.requests.FakeNeighbours;
import com.telemed.requests.FakeNeighboursResource;
import com.telemed.requests.request.RequestFixtures;
import com.telemed.testkit.quarkus.InfrastructureResource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The sandbox autopilot ({@code simulation} on {@code POST /v1/requests}; partner-extensions.md,
 * "Sandbox simulation"): its plan stored by the create, its steps taken by the scheduler's runs
 * ({@link Autopilot#runDue}, run here by hand as a replica's ticker runs it), across a restart, and
 * by two schedulers at once.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(FakeNeighboursResource.class)
class AutopilotTest {

    @Inject
    FakeNeighbours neighbours;

    @Inject
    Autopilot autopilot;

    SandboxFixtures sandbox;

    @BeforeEach
    void partner() {
        neighbours.reset();
        sandbox = SandboxFixtures.create(neighbours);
        // Plans other tests left unfinished are not this test's.
        update("UPDATE sandbox_autopilots SET finished_at = now() WHERE finished_at IS NULL");
    }

    @AfterEach
    void heal() {
        neighbours.reset();
    }

    private static Map<String, Object> simulation(String outcome, int afterSeconds, boolean ship) {
        Map<String, Object> simulation = new LinkedHashMap<>();
        simulation.put("outcome", outcome);
        simulation.put("afterSeconds", afterSeconds);
        simulation.put("ship", ship);
        return simulation;
    }

    private static Map<String, Object> plan(String requestId) {
        return rows("SELECT outcome, ship, next_step, finished_at IS NOT NULL AS finished, last_result FROM sandbox_autopilots"
                + " WHERE request_id = ?::uuid", requestId).get(0);
    }

    /** Runs the scheduler until the request's plan has finished. */
    private void runUntilFinished(String requestId) {
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            autopilot.runDue();
            return Boolean.TRUE.equals(plan(requestId).get("finished"));
        });
    }

    @Test
    void theCreateStoresThePlanAndTheSchedulerTakesItsStepsWithTheirEvents() {
        String requestId = sandbox.autopiloted(simulation("approve", 0, true));
        assertEquals(Map.of("outcome", "approve", "ship", true, "next_step", 0, "finished", false),
                withoutResult(plan(requestId)));
        runUntilFinished(requestId);
        assertEquals(Map.of("outcome", "approve", "ship", true, "next_step", 3, "finished", true), withoutResult(plan(requestId)));
        assertEquals("deliver", plan(requestId).get("last_result"));
        RequestFixtures.get(sandbox.partner(), requestId).then().statusCode(200)
                .body("lineItems[0].status", equalTo("approved"))
                .body("lineItems[0].deliveryStatus", equalTo("delivered"));
        assertEquals(List.of("item.approved", "request.all_approved", "item.shipped", "delivery.update"),
                types(events(requestId, 4)));
    }

    @Test
    void theConsultationOutcomeAndDeny() {
        String consulted = sandbox.autopiloted(simulation("consultation", 0, false));
        String denied = sandbox.autopiloted(simulation("deny", 0, true));
        runUntilFinished(consulted);
        runUntilFinished(denied);
        assertEquals(List.of("item.consultation_requested", "appointment.consultation_requested", "appointment.booked",
                "item.approved", "request.all_approved"), types(events(consulted, 5)));
        // ship goes with an approval only.
        assertEquals(List.of("item.denied", "request.all_denied"), types(events(denied, 2)));
        assertEquals(1, plan(denied).get("next_step"));
    }

    @Test
    void aPlanIsNotTakenBeforeItsTime() {
        String requestId = sandbox.autopiloted(simulation("approve", 3600, false));
        autopilot.runDue();
        assertEquals(Map.of("outcome", "approve", "ship", false, "next_step", 0, "finished", false), withoutResult(plan(requestId)));
        assertEquals(1, count("SELECT count(*) FROM sandbox_autopilots WHERE request_id = ?::uuid"
                + " AND due_at BETWEEN (SELECT created_at FROM requests WHERE id = ?::uuid) + interval '3599 seconds'"
                + " AND (SELECT created_at FROM requests WHERE id = ?::uuid) + interval '3601 seconds'", requestId, requestId, requestId));
        RequestFixtures.get(sandbox.partner(), requestId).then().body("lineItems[0].status", equalTo("pending"));
    }

    @Test
    void aReplicaStoppedMidStepLeavesItsClaimToTheNextRunAndNoStepIsTakenTwice() {
        // Stopped after taking the step, before recording it: the approval committed, the plan still at step 0 and
        // claimed, the claim's lease run out (the restart took longer).
        String acted = sandbox.autopiloted(simulation("approve", 0, true));
        SandboxFixtures.simulate(sandbox.partner(), acted, SandboxFixtures.action("approve")).then().statusCode(200);
        update("UPDATE sandbox_autopilots SET claim = gen_random_uuid(), claimed_until = now() - interval '1 second'"
                + " WHERE request_id = ?::uuid", acted);
        // Stopped before acting: claimed, nothing done, lease over.
        String claimed = sandbox.autopiloted(simulation("approve", 0, false));
        update("UPDATE sandbox_autopilots SET claim = gen_random_uuid(), claimed_until = now() - interval '1 second'"
                + " WHERE request_id = ?::uuid", claimed);
        // Still within its lease: another run leaves it.
        String leased = sandbox.autopiloted(simulation("approve", 0, false));
        update("UPDATE sandbox_autopilots SET claim = gen_random_uuid(), claimed_until = now() + interval '1 hour'"
                + " WHERE request_id = ?::uuid", leased);

        runUntilFinished(acted);
        runUntilFinished(claimed);
        // The approval the stopped replica took counts: refused when taken again, the plan went on from there.
        assertEquals(List.of("created", "approved", "sent_to_pharmacy", "shipped", "delivery_updated"), SandboxFixtures.history(acted));
        assertEquals(List.of("item.approved", "request.all_approved", "item.shipped", "delivery.update"), types(events(acted, 4)));
        assertEquals(List.of("item.approved", "request.all_approved"), types(events(claimed, 2)));
        assertEquals(Map.of("outcome", "approve", "ship", false, "next_step", 0, "finished", false), withoutResult(plan(leased)));
        RequestFixtures.get(sandbox.partner(), leased).then().body("lineItems[0].status", equalTo("pending"));
    }

    @Test
    void twoSchedulersNeverTakeOneStepTwice() throws Exception {
        List<String> requests = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            requests.add(sandbox.autopiloted(simulation("approve", 0, true)));
        }
        CountDownLatch start = new CountDownLatch(1);
        List<CompletableFuture<Void>> schedulers = new ArrayList<>();
        for (int replica = 0; replica < 2; replica++) {
            schedulers.add(CompletableFuture.runAsync(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                await().atMost(Duration.ofSeconds(90)).until(() -> {
                    autopilot.runDue();
                    return count("SELECT count(*) FROM sandbox_autopilots WHERE partner_id = ? AND finished_at IS NULL",
                            sandbox.partner()) == 0;
                });
            }));
        }
        start.countDown();
        CompletableFuture.allOf(schedulers.toArray(CompletableFuture[]::new)).get();
        for (String requestId : requests) {
            // Each step once: one approval, one shipment, one delivery, and no step refused.
            assertEquals(List.of("created", "approved", "sent_to_pharmacy", "shipped", "delivery_updated"), SandboxFixtures.history(requestId), requestId);
            assertEquals(Map.of("outcome", "approve", "ship", true, "next_step", 3, "finished", true), withoutResult(plan(requestId)));
            assertEquals("deliver", plan(requestId).get("last_result"));
        }
        assertEquals(List.of("item.approved", "request.all_approved", "item.shipped", "delivery.update"),
                types(events(requests.get(0), 4)));
    }

    @Test
    void theSimulationIsValidatedWithTheRequest() {
        Map<String, Object> body = new LinkedHashMap<>(RequestFixtures.prescription(sandbox.memberId(), sandbox.drugId()));
        body.put("simulation", Map.of("outcome", "refill", "afterSeconds", 3601, "ship", "yes"));
        given().header("X-Partner-Id", sandbox.partner()).contentType("application/json").body(body).post("/v1/requests")
                .then().statusCode(400)
                .body("", equalTo(Map.of("error", List.of(
                        issue("invalid_enum_value", List.of("simulation", "outcome"),
                                "Invalid enum value. Expected 'approve' | 'deny' | 'consultation', received 'refill'",
                                "received", "refill", "options", List.of("approve", "deny", "consultation")),
                        issue("too_big", List.of("simulation", "afterSeconds"), "Number must be less than or equal to 3600",
                                "maximum", 3600, "type", "number", "inclusive", true, "exact", false),
                        issue("invalid_type", List.of("simulation", "ship"), "Expected boolean, received string",
                                "expected", "boolean", "received", "string")))));
        assertEquals(0, count("SELECT count(*) FROM requests WHERE partner_id = ?", sandbox.partner()));
        // A replay stores no second plan.
        Map<String, Object> keyed = new LinkedHashMap<>(RequestFixtures.prescription(sandbox.memberId(), sandbox.drugId()));
        keyed.put("simulation", simulation("deny", 3600, false));
        keyed.put("idempotencyKey", "autopilot-once");
        given().header("X-Partner-Id", sandbox.partner()).contentType("application/json").body(keyed).post("/v1/requests")
                .then().statusCode(201);
        given().header("X-Partner-Id", sandbox.partner()).contentType("application/json").body(keyed).post("/v1/requests")
                .then().statusCode(200);
        assertEquals(1, count("SELECT count(*) FROM sandbox_autopilots WHERE partner_id = ?", sandbox.partner()));
    }

    private static Map<String, Object> withoutResult(Map<String, Object> plan) {
        Map<String, Object> shown = new LinkedHashMap<>(plan);
        shown.remove("last_result");
        return shown;
    }
}
