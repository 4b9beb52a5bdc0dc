package com.telemed.catalogue.access;

import static com.telemed.catalogue.CatalogueFixtures.createDrug;
import static com.telemed.catalogue.CatalogueFixtures.drugBody;
import static com.telemed.catalogue.CatalogueFixtures.drugId;
import static com.telemed.catalogue.CatalogueFixtures.partnerId;
import static com.telemed.catalogue.CatalogueFixtures.restrict;
import static com.telemed.catalogue.CatalogueFixtures.sku;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.telemed.testkit.quarkus.InfrastructureResource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
class InternalDrugResourceTest {

    private static Response lookup(String drugId, String partnerId) {
        return given().queryParam("partnerId", partnerId).when().get("/internal/drugs/{id}", drugId);
    }

    @Test
    void answersTheDrugItsPharmacyAndWhetherThePartnerMayOrderIt() {
        String id = drugId("lookup");
        Map<String, Object> created = createDrug(id, """
                {"name": "Lookup", "classification": "controlled",
                 "skus": [{"label": "1 mg", "active": true}],
                 "pharmacy": {"id": "pharm-9", "method": "integration_b"}}""");

        Map<String, Object> answer = lookup(id, partnerId())
                .then().statusCode(200).contentType(ContentType.JSON).extract().path("");
        assertEquals(Set.of("drug", "orderable", "pharmacy"), answer.keySet());
        assertEquals(true, answer.get("orderable"));
        assertEquals(Map.of("id", "pharm-9", "method", "integration_b"), answer.get("pharmacy"));
        @SuppressWarnings("unchecked")
        Map<String, Object> drug = (Map<String, Object>) answer.get("drug");
        assertEquals(Set.of("id", "name", "description", "defaultAdCopy", "dosages", "skus", "classification"),
                drug.keySet());
        created.remove("pharmacy");
        assertEquals(created, drug);
    }

    @Test
    void answersEverySkuInSkuOrderWithItsFieldsAndTheReplacedOnesInactiveAfterThem() {
        String id = drugId("lookup-skus");
        Map<String, Object> first = createDrug(id, """
                {"name": "Skus", "classification": "non-controlled",
                 "skus": [{"label": "5 mg", "packageSize": 4,
                           "concentration": {"value": 2.5, "activeUnit": "mg", "baseUnit": "mL"}, "active": true},
                          {"label": "1 mg", "active": false},
                          {"label": "10 mg", "packageSize": 1.5, "active": true}],
                 "pharmacy": {"id": "pharm-1", "method": "integration_a"}}""");
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> skus = (List<Map<String, Object>>) first.get("skus");
        // The replacement lists the third SKU first and leaves the first one out: it stays, inactive, last.
        Map<String, Object> replaced = createDrug(id, """
                {"name": "Skus", "classification": "non-controlled",
                 "skus": [{"id": "%s", "label": "10 mg", "packageSize": 1.5, "active": true},
                          {"id": "%s", "label": "1 mg", "active": true}],
                 "pharmacy": {"id": "pharm-1", "method": "integration_a"}}""".formatted(skus.get(2).get("id"), skus.get(1).get("id")));

        Map<String, Object> drug = lookup(id, partnerId()).then().statusCode(200).extract().path("drug");
        replaced.remove("pharmacy");
        assertEquals(replaced, drug);
        assertEquals(List.of("10 mg", "1 mg", "5 mg"), drug.get("dosages"));
        assertEquals(List.of(true, true, false), ((List<?>) drug.get("skus")).stream().map(sku -> ((Map<?, ?>) sku).get("active")).toList());
        assertEquals(Map.of("value", 2.5f, "activeUnit", "mg", "baseUnit", "mL"), ((Map<?, ?>) ((List<?>) drug.get("skus")).get(2)).get("concentration"));
    }

    @Test
    void orderableFollowsThePartnersAccessList() {
        String allowed = drugId("ord-yes");
        String other = drugId("ord-no");
        createDrug(allowed, drugBody("Yes", sku("1")));
        createDrug(other, drugBody("No", sku("1")));
        String restricted = partnerId();
        restrict(restricted, allowed);

        lookup(allowed, restricted).then().statusCode(200).body("orderable", equalTo(true));
        lookup(other, restricted).then().statusCode(200).body("orderable", equalTo(false))
                .body("drug.id", equalTo(other));
        // Another partner's list does not apply.
        lookup(other, partnerId()).then().statusCode(200).body("orderable", equalTo(true));
    }

    @Test
    void anUnknownDrugIsNotFound() {
        lookup("no-such-drug", partnerId())
                .then().statusCode(404).contentType(ContentType.JSON).body("error", equalTo("Drug not found"));
    }

    @Test
    void needsThePartnerId() {
        given().when().get("/internal/drugs/{id}", "anything")
                .then().statusCode(400)
                .body("error", equalTo(List.of(Map.of("code", "invalid_type", "expected", "string",
                        "received", "undefined", "path", List.of("partnerId"), "message", "Required"))));
    }
}
