package com.telemed.requests.review;

import static com.telemed.testkit.trust.TestPrincipals.ADMIN;
import static com.telemed.testkit.trust.TestPrincipals.SUPPORT;
import static com.telemed.testkit.http.Refusals.assertAnswer;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.telemed.requests.FakeNeighbours;
import com.telemed.requests.FakeNeighboursResource;
import com.telemed.requests.availability.AvailabilityFixtures;
import com.telemed.requests.request.PendingRequest;
import com.telemed.testkit.quarkus.InfrastructureResource;
import com.telemed.testkit.trust.TestServiceProofs;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Who may call requests-service's /ops operations (platform-commons' access.OpsAccess, issue #40) and
 * "a prescriber acts in person" (people-and-pages.md), through the service as the gateway calls it:
 * signed, with the principal the proof covers.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(FakeNeighboursResource.class)
class InPersonTest {

    private static final String FORBIDDEN = "{\"error\":\"Forbidden\"}";
    private static final String MISMATCH = "{\"error\":\"Prescriber mismatch\"}";

    @Inject
    FakeNeighbours neighbours;

    PendingRequest pending;
    String prescriber;

    @BeforeEach
    void setUp() {
        neighbours.reset();
        pending = PendingRequest.create(neighbours, "Grace", "Hopper");
        prescriber = TestServiceProofs.person("acc_lin", pending.prescriberId(), "prescriber");
    }

    private static RequestSpecification as(String principal) {
        return given().header(TestServiceProofs.PRINCIPAL_HEADER, principal).contentType("application/json");
    }

    private String action(String name) {
        return "/ops/v1/requests/" + pending.requestId() + "/" + name;
    }

    @Test
    void onlyAPrescriberActsOnARequestSupportReadsTheQueueAndAnAdministratorManagesPrescribers() {
        for (String refused : new String[] {ADMIN, SUPPORT, TestServiceProofs.pharmacy("pharmacy-x"), "service:web-service"}) {
            assertAnswer(as(refused).body(Map.of("prescriberId", pending.prescriberId())).post(action("claim")), 403, FORBIDDEN);
            assertAnswer(as(refused).body(Map.of("prescriberId", pending.prescriberId(), "text", "x")).post(action("notes")), 403, FORBIDDEN);
        }
        for (String reader : new String[] {SUPPORT, prescriber}) {
            as(reader).get("/ops/v1/review/queue").then().statusCode(200);
        }
        assertAnswer(as(ADMIN).get("/ops/v1/review/queue"), 403, FORBIDDEN);
        Map<String, String> newPrescriber = Map.of("name", "Dr Okafor", "email", "okafor+" + pending.requestId() + "@example.com");
        assertAnswer(as(SUPPORT).body(newPrescriber).post("/ops/v1/prescribers"), 403, FORBIDDEN);
        assertAnswer(as(prescriber).body(newPrescriber).post("/ops/v1/prescribers"), 403, FORBIDDEN);
        as(ADMIN).body(newPrescriber).post("/ops/v1/prescribers").then().statusCode(201);
        assertAnswer(as("").get("/ops/v1/review/queue"), 401, "{\"error\":\"Invalid token\"}");
    }

    @Test
    void aPrescriberMayLeaveOutTheirIdAndMayNotNameAnothers() {
        String other = AvailabilityFixtures.prescriber();
        // Another prescriber's id: refused before anything changes.
        assertAnswer(as(prescriber).body(Map.of("prescriberId", other)).post(action("claim")), 403, MISMATCH);
        assertAnswer(as(prescriber).body(Map.of("prescriberId", other, "text", "Not mine")).post(action("notes")), 403, MISMATCH);
        assertAnswer(as(prescriber).body(Map.of("prescriberId", other, "reason", "x")).post("/ops/v1/requests/" + pending.requestId()
                + "/items/" + pending.itemId() + "/deny"), 403, MISMATCH);
        // Left out: theirs.
        Response claimed = as(prescriber).body(Map.of()).post(action("claim"));
        claimed.then().statusCode(200);
        assertEquals(pending.prescriberId(), claimed.jsonPath().getString("request.prescriberId"));
        as(prescriber).body(Map.of("text", "Reviewed in person")).post(action("notes")).then().statusCode(200);
        // Sent: it must be theirs.
        Response denied = as(prescriber).body(Map.of("prescriberId", pending.prescriberId(), "reason", "not suitable"))
                .post("/ops/v1/requests/" + pending.requestId() + "/items/" + pending.itemId() + "/deny");
        denied.then().statusCode(200);
        assertEquals(List.of("denied"), denied.jsonPath().getList("request.lineItems.status"));
        assertEquals(List.of(pending.prescriberId()), denied.jsonPath().getList("request.lineItems.prescriberId"));
        // The operator key (a sandbox) still names the prescriber it acts for; without one it is a validation failure.
        given().contentType("application/json").body(Map.of()).post(action("claim")).then().statusCode(400);
    }

    @Test
    void aPrescriberSetsTheirOwnHoursAndAnAdministratorAnyones() {
        String other = AvailabilityFixtures.prescriber();
        Map<String, Object> hours = AvailabilityFixtures.hours("Europe/Berlin", AvailabilityFixtures.everyDay("09:00", "17:00"), 30);
        assertAnswer(as(prescriber).body(hours).put("/ops/v1/prescribers/" + other + "/availability"), 403, MISMATCH);
        assertAnswer(as(SUPPORT).body(hours).put("/ops/v1/prescribers/" + other + "/availability"), 403, FORBIDDEN);
        as(prescriber).body(hours).put("/ops/v1/prescribers/" + pending.prescriberId() + "/availability").then().statusCode(200);
        as(ADMIN).body(hours).put("/ops/v1/prescribers/" + other + "/availability").then().statusCode(200);
    }
}
