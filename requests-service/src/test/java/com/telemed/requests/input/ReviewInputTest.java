package com.telemed.requests.input;

import static com.telemed.testkit.http.Refusals.assertRefused;
import static com.telemed.testkit.quarkus.ServiceDatabase.count;
import static com.telemed.testkit.http.Refusals.invalidCharacter;
import static com.telemed.testkit.http.Refusals.tooBig;
import static com.telemed.testkit.http.Refusals.tooLong;
import static com.telemed.testkit.http.Refusals.tooManyDecimals;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.telemed.requests.FakeNeighbours;
import com.telemed.requests.FakeNeighboursResource;
import com.telemed.requests.request.PendingRequest;
import com.telemed.testkit.quarkus.InfrastructureResource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Prescriber console bodies that used to wrap, explode or answer 500 (issue 13): counts past an
 * int, doses past a numeric or with a scale no arithmetic survives, unstorable notes. Each is a
 * 400 issue array and leaves the request as it was.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(FakeNeighboursResource.class)
class ReviewInputTest {

    private static final Duration FAST = Duration.ofSeconds(5);

    @Inject
    FakeNeighbours neighbours;

    String partner;
    String prescriberId;
    String requestId;
    String itemId;

    @BeforeEach
    void setUp() {
        neighbours.reset();
        PendingRequest pending = PendingRequest.create(neighbours, "Grace", "Hopper");
        partner = pending.partner();
        prescriberId = pending.prescriberId();
        requestId = pending.requestId();
        itemId = pending.itemId();
    }

    private Response console(String action, String body) {
        return assertTimeoutPreemptively(FAST, () -> given().contentType("application/json")
                .body(body).post("/ops/v1/requests/" + requestId + action));
    }

    private String prescription(String daysSupply, String refills, String interval, String dose, String quantity) {
        return """
                {"prescriberId": "%s", "prescription": {"skuId": "%s", "quantity": %s, "daysSupply": %s,
                 "directions": "Inject weekly", "refills": %s, "dispenseAsWritten": false,
                 "clinicalDose": {"value": %s, "unit": "mg"}, "dosingIntervalDays": %s}}"""
                .formatted(prescriberId, FakeNeighbours.skuId(requestDrug(), 0), quantity, daysSupply, refills, dose, interval);
    }

    private String requestDrug() {
        return given().header("X-Partner-Id", partner).get("/v1/requests/" + requestId).then().extract().path("drugId");
    }

    private void assertUnchanged(long history) {
        given().header("X-Partner-Id", partner).get("/v1/requests/" + requestId).then().statusCode(200)
                .body("lineItems[0].status", equalTo("pending"))
                .body("prescriptionRecords", equalTo(List.of()));
        assertEquals(0, count("SELECT count(*) FROM prescription_records WHERE request_id = ?", UUID.fromString(requestId)));
        assertEquals(history, history());
    }

    private long history() {
        return count("SELECT count(*) FROM history_entries WHERE request_id = ?", UUID.fromString(requestId));
    }

    @Test
    void countsPastAnIntAndDosesPastANumericAreIssuesNotWrappedOrStored() {
        long history = history();
        String prefix = "[\"prescription\",";
        assertRefused(console("/items/" + itemId + "/approve",
                        prescription("2147483648", "1e200000", "4294967297", "1e-2147483647", "1e200000")),
                tooBig(prefix + "\"quantity\"]", 1_000_000), tooBig(prefix + "\"daysSupply\"]", Integer.MAX_VALUE),
                tooBig(prefix + "\"refills\"]", Integer.MAX_VALUE), tooManyDecimals(prefix + "\"clinicalDose\",\"value\"]"),
                tooBig(prefix + "\"dosingIntervalDays\"]", Integer.MAX_VALUE));
        assertRefused(console("/approve", prescription("30", "0", "7", "1e200000", "\"" + "q".repeat(101) + "\"")),
                tooLong(prefix + "\"quantity\"]", 100), tooBig(prefix + "\"clinicalDose\",\"value\"]", 1_000_000));
        assertUnchanged(history);

        console("/items/" + itemId + "/approve", prescription("2147483647", "2147483647", "2147483647", "0.000001", "1000000"))
                .then().statusCode(200)
                .body("prescriptionRecord.daysSupply", equalTo(Integer.MAX_VALUE))
                .body("prescriptionRecord.refills", equalTo(Integer.MAX_VALUE))
                .body("prescriptionRecord.dosingIntervalDays", equalTo(Integer.MAX_VALUE));
    }

    @Test
    void unstorableOrOverlongNotesAndReasonsChangeNothing() {
        long history = history();
        assertRefused(console("/notes", "{\"prescriberId\": \"" + prescriberId + "\", \"text\": \"call back\\u0000\"}"),
                invalidCharacter("[\"text\"]"));
        assertRefused(console("/notes", "{\"prescriberId\": \"" + prescriberId + "\", \"text\": \"" + "n".repeat(10_001) + "\"}"),
                tooLong("[\"text\"]", 10_000));
        assertRefused(console("/items/" + itemId + "/deny",
                        "{\"prescriberId\": \"" + prescriberId + "\", \"reason\": \"" + "r".repeat(1001) + "\"}"),
                tooLong("[\"reason\"]", 1000));
        assertRefused(console("/withdraw", "{\"reason\": \"\\ud800\"}"), invalidCharacter("[\"reason\"]"));
        assertUnchanged(history);
    }
}
