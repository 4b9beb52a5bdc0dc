package com.telemed.requests.simulation;

import static com.telemed.requests.request.RequestFixtures.error;
import static com.telemed.requests.request.RequestFixtures.issue;
import static com.telemed.requests.simulation.SandboxFixtures.action;
import static com.telemed.testkit.quarkus.ServiceDatabase.count;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.telemed.requests.FakeNeighbours;
import com.telemed.requests.FakeNeighboursResource;
import com.telemed.requests.request.RequestFixtures;
import com.telemed.testkit.quarkus.InfrastructureResource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A production deployment (partner-extensions.md, "Sandbox simulation"): every {@code /v1/sandbox}
 * route answers {@code 404 {"error":"Not Found"}}, and {@code simulation} on a create is refused.
 */
@QuarkusTest
@TestProfile(SandboxInProductionTest.Production.class)
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(FakeNeighboursResource.class)
class SandboxInProductionTest {

    /** The deployment says production; the pharmacies stay the sandbox's (their own settings are not under test). */
    public static class Production implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("requests.deployment.environment", "production");
        }
    }

    @Inject
    FakeNeighbours neighbours;

    SandboxFixtures sandbox;

    @BeforeEach
    void partner() {
        neighbours.reset();
        sandbox = SandboxFixtures.create(neighbours);
    }

    @Test
    void everySandboxRouteIsNotFound() {
        String requestId = sandbox.request();
        sandbox.simulate(requestId, action("approve")).then().statusCode(404).body("", equalTo(error("Not Found")));
        sandbox.simulate(requestId, action("launch")).then().statusCode(404).body("", equalTo(error("Not Found")));
        for (String path : List.of("/v1/sandbox", "/v1/sandbox/requests/" + requestId + "/simulate", "/v1/sandbox/anything")) {
            given().header("X-Partner-Id", sandbox.partner()).get(path).then().statusCode(404).body("", equalTo(error("Not Found")));
        }
        RequestFixtures.get(sandbox.partner(), requestId).then().statusCode(200).body("lineItems[0].status", equalTo("pending"));
    }

    @Test
    void simulationOnACreateIsRefusedWhateverItHolds() {
        Map<String, Object> issue = issue("custom", List.of("simulation"), "simulation is only accepted in sandbox");
        for (Object simulation : List.of(Map.of("outcome", "approve"), Map.of("outcome", "launch", "afterSeconds", -1), "yes")) {
            Map<String, Object> body = new LinkedHashMap<>(RequestFixtures.prescription(sandbox.memberId(), sandbox.drugId()));
            body.put("simulation", simulation);
            given().header("X-Partner-Id", sandbox.partner()).contentType("application/json").body(body).post("/v1/requests")
                    .then().statusCode(400).body("", equalTo(Map.of("error", List.of(issue))));
        }
        // With the body's own issues, in one answer: the body's first.
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("memberId", sandbox.memberId());
        body.put("caseNotes", "");
        body.put("simulation", Map.of("outcome", "approve"));
        given().header("X-Partner-Id", sandbox.partner()).contentType("application/json").body(body).post("/v1/requests")
                .then().statusCode(400)
                .body("error.path", equalTo(List.of(List.of("caseNotes"), List.of("simulation"))));
        assertEquals(0, count("SELECT count(*) FROM requests WHERE partner_id = ?", sandbox.partner()));
        // Without it, a create is a create.
        assertEquals(36, sandbox.request().length());
        assertEquals(0, count("SELECT count(*) FROM sandbox_autopilots WHERE partner_id = ?", sandbox.partner()));
    }
}
