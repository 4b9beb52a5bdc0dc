package com.telemed.catalogue.drug;

import static com.telemed.catalogue.CatalogueFixtures.createDrug;
import static com.telemed.catalogue.CatalogueFixtures.drugBody;
import static com.telemed.catalogue.CatalogueFixtures.drugId;
import static com.telemed.catalogue.CatalogueFixtures.partnerDrugs;
import static com.telemed.catalogue.CatalogueFixtures.partnerId;
import static com.telemed.catalogue.CatalogueFixtures.restrict;
import static com.telemed.catalogue.CatalogueFixtures.sku;
import static com.telemed.catalogue.CatalogueFixtures.skusOf;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.testkit.quarkus.InfrastructureResource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
class DrugResourceTest {

    private static final Set<String> DRUG_FIELDS =
            Set.of("id", "name", "description", "defaultAdCopy", "dosages", "skus", "classification");

    private static List<Map<String, Object>> drugsFor(String partnerId) {
        return partnerDrugs(partnerId).then().statusCode(200).contentType(ContentType.JSON).extract().path("drugs");
    }

    private static List<Object> idsFor(String partnerId) {
        return drugsFor(partnerId).stream().map(drug -> drug.get("id")).toList();
    }

    @Test
    void needsThePartnerTheGatewayAuthenticated() {
        given().when().get("/v1/drugs")
                .then().statusCode(401).contentType(ContentType.JSON).body("error", equalTo("API Key missing"));
    }

    @Test
    void showsContractFieldsOnlyWithInactiveSkusIncluded() {
        String id = drugId("v1");
        String skuId = (String) skusOf(createDrug(id, """
                {"name": "Visible", "description": null, "defaultAdCopy": "Ask your doctor",
                 "classification": "non-controlled",
                 "skus": [{"label": "1 mg", "active": true, "packageSize": null, "concentration": null},
                          {"label": "2 mg", "active": false, "packageSize": 4,
                           "concentration": {"value": 0.25, "activeUnit": "mg", "baseUnit": "mL"}}],
                 "pharmacy": {"id": "secret-pharmacy", "method": "integration_a"}}""")).get(0).get("id");

        Map<String, Object> drug = drugsFor(partnerId()).stream()
                .filter(found -> id.equals(found.get("id"))).findFirst().orElseThrow();
        assertEquals(DRUG_FIELDS, drug.keySet());
        assertFalse(drug.containsKey("pharmacy"));
        assertEquals("Visible", drug.get("name"));
        assertTrue(drug.containsKey("description"));
        assertNull(drug.get("description"));
        assertEquals("Ask your doctor", drug.get("defaultAdCopy"));
        assertEquals("non-controlled", drug.get("classification"));
        assertEquals(List.of("1 mg", "2 mg"), drug.get("dosages"));
        List<Map<String, Object>> skus = skusOf(drug);
        assertEquals(Map.of("id", skuId, "label", "1 mg", "active", true), skus.get(0));
        assertEquals(Set.of("id", "label", "packageSize", "concentration", "active"), skus.get(1).keySet());
        assertEquals(4, skus.get(1).get("packageSize"));
        assertEquals(Map.of("value", 0.25f, "activeUnit", "mg", "baseUnit", "mL"), skus.get(1).get("concentration"));
        assertEquals(false, skus.get(1).get("active"));
        // Nothing in the whole answer names a pharmacy.
        String raw = partnerDrugs(partnerId()).then().statusCode(200).extract().asString();
        assertFalse(raw.contains("pharmacy"), raw);
        assertFalse(raw.contains("secret-pharmacy"), raw);
    }

    @Test
    void aRestrictedPartnerSeesOnlyItsDrugsAndOthersAreUnaffected() {
        String allowed = drugId("allowed");
        String hidden = drugId("hidden");
        createDrug(allowed, drugBody("Allowed", sku("1 mg")));
        createDrug(hidden, drugBody("Hidden", sku("1 mg")));
        String restricted = partnerId();
        String other = partnerId();
        String unrestricted = partnerId();

        restrict(restricted, allowed, "not-yet-a-drug");
        restrict(other, hidden);

        assertEquals(List.of(allowed), idsFor(restricted));
        assertEquals(List.of(hidden), idsFor(other));
        List<Object> everything = idsFor(unrestricted);
        assertTrue(everything.containsAll(List.of(allowed, hidden)), everything.toString());

        Map<String, Object> seen = drugsFor(restricted).get(0);
        assertEquals(DRUG_FIELDS, seen.keySet());
    }

    @Test
    void anEmptyListShowsNothing() {
        String partner = partnerId();
        createDrug(drugId("some"), drugBody("Some"));
        restrict(partner);
        assertEquals(List.of(), drugsFor(partner));
    }
}
