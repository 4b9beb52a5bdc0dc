package com.telemed.requests.review;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.telemed.requests.FakeNeighbours;
import com.telemed.requests.PartnerWithDrugAndMember;
import com.telemed.requests.FakeNeighboursResource;
import com.telemed.testkit.quarkus.InfrastructureResource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Review decisions that need catalogue-service (item and request approval, the dosage choice):
 * the drug is read outside the decision's transaction ({@code Review.withDrugs}), once, and the
 * answers are those of the contract in the same order as before: request, prescriber and item
 * errors without asking the catalogue, then the drug's own.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(FakeNeighboursResource.class)
class ReviewCatalogueTest extends PartnerWithDrugAndMember {

    private static final Map<String, Object> PRESCRIPTION = Map.of("quantity", 30, "quantityUnits", "tablets",
            "daysSupply", 30, "directions", "One tablet daily", "refills", 1, "dispenseAsWritten", false);

    String prescriberId;

    @BeforeEach
    void setUp() {
        prescriberId = given().contentType("application/json")
                .body(Map.of("name", "Dr Lin", "email", "lin+" + UUID.randomUUID() + "@example.com"))
                .when().post("/ops/v1/prescribers").then().statusCode(201).extract().path("prescriber.id");
    }

    private String request(boolean withItem) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("memberId", memberId);
        body.put("caseNotes", "notes");
        if (withItem) {
            body.put("items", List.of(Map.of("drugId", drugId)));
        }
        return given().header("X-Partner-Id", partner).contentType("application/json").body(body)
                .when().post("/v1/requests").then().statusCode(201).extract().path("requestId");
    }

    private String itemOf(String requestId) {
        return given().header("X-Partner-Id", partner).when().get("/v1/requests/" + requestId)
                .then().statusCode(200).extract().path("lineItems[0].itemId");
    }

    private static Response ops(String path, Object body) {
        return given().contentType("application/json").body(body).when().post("/ops/v1/requests/" + path);
    }

    private Map<String, Object> approval(String prescriber, String skuId) {
        Map<String, Object> prescription = new LinkedHashMap<>(PRESCRIPTION);
        prescription.put("skuId", skuId);
        return Map.of("prescriberId", prescriber, "prescription", prescription);
    }

    private List<FakeNeighbours.Call> catalogueCalls() {
        return neighbours.calls().stream().filter(FakeNeighbours::toCatalogue).toList();
    }

    @Test
    void approvingAnItemReadsItsDrugOnce() {
        String requestId = request(true);
        String itemId = itemOf(requestId);
        neighbours.clearCalls();

        ops(requestId + "/items/" + itemId + "/approve", approval(prescriberId, FakeNeighbours.skuId(drugId, 1)))
                .then().statusCode(200)
                .body("request.lineItems[0].status", equalTo("approved"))
                .body("prescriptionRecord.selectedSkuId", equalTo(FakeNeighbours.skuId(drugId, 1)));
        assertEquals(List.of("/internal/drugs/" + drugId), catalogueCalls().stream().map(FakeNeighbours.Call::path).toList());
        assertEquals(Map.of("partnerId", partner), catalogueCalls().get(0).query());
    }

    @Test
    void approvingAConsultationRequestCreatesItsItemFromTheDrugChosenNow() {
        String requestId = request(false);
        neighbours.clearCalls();
        Map<String, Object> body = new LinkedHashMap<>(approval(prescriberId, FakeNeighbours.skuId(drugId, 0)));
        body.put("drugId", drugId);

        ops(requestId + "/approve", body).then().statusCode(200)
                .body("request.storedStatus", equalTo("approved"))
                .body("request.lineItems.size()", equalTo(1))
                .body("request.lineItems[0].drugId", equalTo(drugId))
                .body("request.lineItems[0].drugName", equalTo("Semaglutide"))
                .body("request.lineItems[0].status", equalTo("approved"));
        assertEquals(1, catalogueCalls().size());
    }

    @Test
    void choosingTheDosageReadsTheDrug() {
        String requestId = request(true);
        String itemId = itemOf(requestId);
        neighbours.clearCalls();

        ops(requestId + "/items/" + itemId + "/dosage", Map.of("prescriberId", prescriberId, "skuId", FakeNeighbours.skuId(drugId, 1)))
                .then().statusCode(200).body("request.lineItems[0].selectedSkuId", equalTo(FakeNeighbours.skuId(drugId, 1)));
        ops(requestId + "/items/" + itemId + "/dosage", Map.of("prescriberId", prescriberId, "skuId", "sku_unknown"))
                .then().statusCode(400).body("", equalTo(Map.of("error", "Invalid skuId for " + drugId + ": sku_unknown")));
        assertEquals(2, catalogueCalls().size());
    }

    /**
     * Issue #45: an approval without {@code skuId}, when the request named none, is one issue at the field the
     * prescriber fills, naming the drug's active SKU ids in the catalogue's order (an inactive one left out);
     * nothing is decided.
     */
    @Test
    void approvingWithoutASkuNamesTheActiveSkusAtTheSkuField() {
        neighbours.drug(drugId, "Semaglutide", List.of("0.25mg", "0.5mg", "1mg"), partner)
                .getJsonArray("skus").getJsonObject(1).put("active", false);
        String expected = "{\"error\":[{\"code\":\"custom\",\"path\":[\"prescription\",\"skuId\"],\"message\":"
                + "\"skuId is required: one of " + FakeNeighbours.skuId(drugId, 0) + ", " + FakeNeighbours.skuId(drugId, 2) + "\"}]}";
        Map<String, Object> withoutSku = Map.of("prescriberId", prescriberId, "prescription", PRESCRIPTION);

        String requestId = request(true);
        String itemId = itemOf(requestId);
        ops(requestId + "/items/" + itemId + "/approve", withoutSku).then().statusCode(400).body(equalTo(expected));
        ops(requestId + "/approve", withoutSku).then().statusCode(400).body(equalTo(expected));
        given().header("X-Partner-Id", partner).when().get("/v1/requests/" + requestId).then().statusCode(200)
                .body("status", equalTo("pending")).body("lineItems[0].status", equalTo("pending"));

        // A consultation request approved with the drug chosen now: the same issue.
        Map<String, Object> withDrug = new LinkedHashMap<>(withoutSku);
        withDrug.put("drugId", drugId);
        String consultation = request(false);
        ops(consultation + "/approve", withDrug).then().statusCode(400).body(equalTo(expected));

        // The SKU the answer names approves.
        ops(requestId + "/items/" + itemId + "/approve", approval(prescriberId, FakeNeighbours.skuId(drugId, 2)))
                .then().statusCode(200).body("prescriptionRecord.selectedSkuId", equalTo(FakeNeighbours.skuId(drugId, 2)));
    }

    @Test
    void requestPrescriberAndItemErrorsComeWithoutAskingTheCatalogue() {
        String requestId = request(true);
        String itemId = itemOf(requestId);
        ops(requestId + "/items/" + itemId + "/deny", Map.of("prescriberId", prescriberId)).then().statusCode(200);
        neighbours.clearCalls();
        Map<String, Object> approval = approval(prescriberId, FakeNeighbours.skuId(drugId, 0));

        ops(UUID.randomUUID() + "/items/" + itemId + "/approve", approval)
                .then().statusCode(404).body("", equalTo(Map.of("error", "Request not found")));
        ops(requestId + "/items/" + itemId + "/approve", approval(UUID.randomUUID().toString(), FakeNeighbours.skuId(drugId, 0)))
                .then().statusCode(400).body("", equalTo(Map.of("error", "Prescriber not found")));
        ops(requestId + "/items/" + UUID.randomUUID() + "/approve", approval)
                .then().statusCode(404).body("", equalTo(Map.of("error", "Line item not found")));
        ops(requestId + "/items/" + itemId + "/approve", approval)
                .then().statusCode(400).body("", equalTo(Map.of("error", "Item status is 'denied', expected 'pending' or 'call_requested'")));
        ops(requestId + "/approve", approval)
                .then().statusCode(400).body("", equalTo(Map.of("error", "Request status is 'denied', expected 'pending'")));
        ops(requestId + "/items/" + itemId + "/dosage", Map.of("prescriberId", prescriberId, "skuId", FakeNeighbours.skuId(drugId, 0)))
                .then().statusCode(400).body("", equalTo(Map.of("error", "Item status is 'denied', expected 'pending' or 'call_requested'")));
        assertEquals(List.of(), catalogueCalls());
    }

    @Test
    void theCataloguesRefusalsAreAnsweredAndNothingChanges() {
        String requestId = request(false);
        String unknown = "drug-unknown-" + UUID.randomUUID().toString().substring(0, 8);
        String foreign = "drug-" + UUID.randomUUID().toString().substring(0, 8);
        neighbours.drug(foreign, "Finasteride", List.of("1mg"), "partner-" + UUID.randomUUID());
        Map<String, Object> body = new LinkedHashMap<>(approval(prescriberId, FakeNeighbours.skuId(drugId, 0)));

        body.put("drugId", unknown);
        ops(requestId + "/approve", body).then().statusCode(400)
                .body("", equalTo(Map.of("error", "Invalid drugId - drug not found: " + unknown)));
        body.put("drugId", foreign);
        ops(requestId + "/approve", body).then().statusCode(403)
                .body("", equalTo(Map.of("error", "Partner does not have access to drug: " + foreign)));

        neighbours.failCatalogue(FakeNeighbours.Failure.ERROR_500);
        body.put("drugId", drugId);
        ops(requestId + "/approve", body).then().statusCode(503)
                .body("", equalTo(Map.of("error", "Service Unavailable")));

        neighbours.reset();
        given().header("X-Partner-Id", partner).when().get("/v1/requests/" + requestId).then().statusCode(200)
                .body("status", equalTo("pending"))
                .body("lineItems", equalTo(List.of()))
                .body("providerId", equalTo(null))
                .body("history.action", equalTo(List.of("created")));
    }
}
