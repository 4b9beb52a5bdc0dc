package com.telemed.catalogue.drug;

import static com.telemed.catalogue.CatalogueFixtures.SKU_ID;
import static com.telemed.catalogue.CatalogueFixtures.createDrug;
import static com.telemed.catalogue.CatalogueFixtures.drugBody;
import static com.telemed.catalogue.CatalogueFixtures.drugId;
import static com.telemed.catalogue.CatalogueFixtures.putDrug;
import static com.telemed.catalogue.CatalogueFixtures.sku;
import static com.telemed.catalogue.CatalogueFixtures.skusOf;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.testkit.quarkus.InfrastructureResource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
class DrugOpsResourceTest {

    private static final Set<String> OPS_DRUG_FIELDS =
            Set.of("id", "name", "description", "defaultAdCopy", "dosages", "skus", "classification", "pharmacy");

    static Map<String, Object> issue(Object... keysAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }

    static List<Map<String, Object>> issuesOf(String drugId, String body) {
        return putDrug(drugId, body).then().statusCode(400).contentType(ContentType.JSON).extract().path("error");
    }

    @Test
    void createsADrugWithSkusAndPharmacy() {
        String id = drugId("sema");
        Map<String, Object> drug = createDrug(id, """
                {"name": "Semaglutide", "description": "GLP-1 agonist", "classification": "controlled",
                 "skus": [
                   {"label": "2.5 mg/mL vial", "packageSize": 2, "active": true,
                    "concentration": {"value": 2.5, "activeUnit": "mg", "baseUnit": "mL"}},
                   {"label": "Starter pack", "active": false}],
                 "pharmacy": {"id": "pharm-7", "method": "integration_a"}}""");

        assertEquals(OPS_DRUG_FIELDS, drug.keySet());
        assertEquals(id, drug.get("id"));
        assertEquals("Semaglutide", drug.get("name"));
        assertEquals("GLP-1 agonist", drug.get("description"));
        assertTrue(drug.containsKey("defaultAdCopy"));
        assertNull(drug.get("defaultAdCopy"));
        assertEquals("controlled", drug.get("classification"));
        assertEquals(List.of("2.5 mg/mL vial", "Starter pack"), drug.get("dosages"));
        assertEquals(Map.of("id", "pharm-7", "method", "integration_a"), drug.get("pharmacy"));

        List<Map<String, Object>> skus = skusOf(drug);
        assertEquals(2, skus.size());
        Map<String, Object> vial = skus.get(0);
        assertEquals(Set.of("id", "label", "packageSize", "concentration", "active"), vial.keySet());
        assertTrue(SKU_ID.matcher((String) vial.get("id")).matches(), vial.get("id").toString());
        assertEquals("2.5 mg/mL vial", vial.get("label"));
        assertEquals(2, vial.get("packageSize"));
        assertEquals(Map.of("value", 2.5f, "activeUnit", "mg", "baseUnit", "mL"), vial.get("concentration"));
        assertEquals(true, vial.get("active"));
        Map<String, Object> starter = skus.get(1);
        assertEquals(Set.of("id", "label", "active"), starter.keySet());
        assertTrue(SKU_ID.matcher((String) starter.get("id")).matches());
        assertNotEquals(vial.get("id"), starter.get("id"));
        assertEquals(false, starter.get("active"));
    }

    @Test
    void replacingKeepsTheSkuIdWhenItsLabelChanges() {
        String id = drugId("tirz");
        Map<String, Object> created = createDrug(id, drugBody("Tirzepatide", sku("5 mg")));
        String skuId = (String) skusOf(created).get(0).get("id");

        Map<String, Object> replaced = createDrug(id, """
                {"name": "Tirzepatide (new)", "defaultAdCopy": "Weekly", "classification": "non-controlled",
                 "skus": [{"id": "%s", "label": "5 mg / 0.5 mL", "packageSize": 0.5, "active": true},
                          {"id": null, "label": "10 mg", "active": true}],
                 "pharmacy": {"id": "pharm-2", "method": "integration_b"}}""".formatted(skuId));

        assertEquals("Tirzepatide (new)", replaced.get("name"));
        assertEquals("Weekly", replaced.get("defaultAdCopy"));
        assertNull(replaced.get("description"));
        assertEquals(Map.of("id", "pharm-2", "method", "integration_b"), replaced.get("pharmacy"));
        assertEquals(List.of("5 mg / 0.5 mL", "10 mg"), replaced.get("dosages"));
        List<Map<String, Object>> skus = skusOf(replaced);
        assertEquals(2, skus.size());
        assertEquals(skuId, skus.get(0).get("id"));
        assertEquals("5 mg / 0.5 mL", skus.get(0).get("label"));
        assertEquals(0.5f, skus.get(0).get("packageSize"));
        String newId = (String) skus.get(1).get("id");
        assertTrue(SKU_ID.matcher(newId).matches(), newId);
        assertNotEquals(skuId, newId);

        // Read back through the list: the same stored state.
        Map<String, Object> listed = given().when().get("/ops/v1/drugs")
                .then().statusCode(200).extract().path("drugs.find { it.id == '%s' }".formatted(id));
        assertEquals(replaced, listed);
    }

    @Test
    void skusLeftOutOfAReplacementStayAsInactive() {
        String id = drugId("omit");
        Map<String, Object> created = createDrug(id, drugBody("Omitted", sku("A"), sku("B"), sku("C")));
        List<Map<String, Object>> before = skusOf(created);
        String a = (String) before.get(0).get("id");
        String b = (String) before.get(1).get("id");
        String c = (String) before.get(2).get("id");

        Map<String, Object> replaced = createDrug(id, drugBody("Omitted", sku(b, "B2"), sku("D")));

        List<Map<String, Object>> skus = skusOf(replaced);
        assertEquals(4, skus.size());
        assertEquals(List.of(b, a, c), List.of(skus.get(0).get("id"), skus.get(2).get("id"), skus.get(3).get("id")));
        assertEquals(List.of(true, true, false, false), skus.stream().map(sku -> sku.get("active")).toList());
        assertEquals(List.of("B2", "D", "A", "C"), replaced.get("dosages"));

        // An inactive SKU comes back when listed again, active as sent.
        Map<String, Object> revived = createDrug(id, drugBody("Omitted", sku(a, "A")));
        assertEquals(List.of(a, b, skus.get(1).get("id"), c), skusOf(revived).stream().map(sku -> sku.get("id")).toList());
        assertEquals(List.of(true, false, false, false), skusOf(revived).stream().map(sku -> sku.get("active")).toList());
    }

    @Test
    void aSkuIdThatIsNotOneOfTheDrugsIsRejected() {
        String other = drugId("other");
        String foreignSku = (String) skusOf(createDrug(other, drugBody("Other", sku("1 mg")))).get(0).get("id");
        String id = drugId("own");
        createDrug(id, drugBody("Own", sku("2 mg")));

        putDrug(id, drugBody("Own", sku(foreignSku, "2 mg")))
                .then().statusCode(400).contentType(ContentType.JSON)
                .body("error", equalTo("SKU not found: " + foreignSku));
        putDrug(id, drugBody("Own", sku("sku_unknown", "2 mg")))
                .then().statusCode(400).body("error", equalTo("SKU not found: sku_unknown"));

        // A new drug sent with a SKU id is rejected and not created.
        String fresh = drugId("fresh");
        putDrug(fresh, drugBody("Fresh", sku(foreignSku, "x")))
                .then().statusCode(400).body("error", equalTo("SKU not found: " + foreignSku));
        given().when().get("/internal/drugs/{id}?partnerId=p", fresh).then().statusCode(404);
        // The other drug's SKU is untouched.
        assertEquals(foreignSku, given().when().get("/internal/drugs/{id}?partnerId=p", other)
                .then().statusCode(200).extract().path("drug.skus[0].id"));
    }

    @Test
    void reportsEveryIssueOfTheBodyWithZodPaths() {
        assertEquals(List.of(
                        issue("code", "invalid_type", "expected", "string", "received", "undefined",
                                "path", List.of("name"), "message", "Required"),
                        issue("code", "invalid_enum_value", "received", "schedule-2",
                                "options", List.of("non-controlled", "controlled"), "path", List.of("classification"),
                                "message", "Invalid enum value. Expected 'non-controlled' | 'controlled', received 'schedule-2'")),
                issuesOf(drugId("bad"), """
                        {"classification": "schedule-2", "skus": [],
                         "pharmacy": {"id": "p", "method": "email"}}"""));
    }

    @Test
    void reportsNestedSkuAndPharmacyIssues() {
        assertEquals(List.of(
                        issue("code", "too_small", "minimum", 1, "type", "string", "inclusive", true, "exact", false,
                                "path", List.of("skus", 0, "label"), "message", "String must contain at least 1 character(s)"),
                        issue("code", "custom", "path", List.of("skus", 0, "packageSize"),
                                "message", "Number must be greater than 0"),
                        issue("code", "invalid_type", "expected", "string", "received", "number",
                                "path", List.of("skus", 1, "concentration", "baseUnit"),
                                "message", "Expected string, received number"),
                        issue("code", "invalid_type", "expected", "boolean", "received", "undefined",
                                "path", List.of("skus", 1, "active"), "message", "Required"),
                        issue("code", "invalid_enum_value", "received", "fax",
                                "options", List.of("integration_a", "integration_b", "email", "none"),
                                "path", List.of("pharmacy", "method"),
                                "message", "Invalid enum value. Expected 'integration_a' | 'integration_b' | 'email' | 'none', received 'fax'")),
                issuesOf(drugId("nested"), """
                        {"name": "N", "classification": "controlled",
                         "skus": [{"label": "", "packageSize": -1, "active": true},
                                  {"label": "x", "concentration": {"value": 1, "activeUnit": "mg", "baseUnit": 5}}],
                         "pharmacy": {"id": "p", "method": "fax"}}"""));
        assertEquals(List.of(
                        issue("code", "invalid_type", "expected", "array", "received", "undefined",
                                "path", List.of("skus"), "message", "Required"),
                        issue("code", "invalid_type", "expected", "object", "received", "null",
                                "path", List.of("pharmacy"), "message", "Expected object, received null")),
                issuesOf(drugId("missing"), "{\"name\": \"N\", \"classification\": \"controlled\", \"pharmacy\": null}"));
    }

    @Test
    void rejectsDuplicateSkuIdsAndLabels() {
        String id = drugId("dup");
        String skuId = (String) skusOf(createDrug(id, drugBody("Dup", sku("1 mg")))).get(0).get("id");
        assertEquals(List.of(
                        issue("code", "custom", "path", List.of("skus", 1, "id"), "message", "Duplicate SKU id"),
                        issue("code", "custom", "path", List.of("skus", 2, "label"), "message", "Duplicate SKU label")),
                issuesOf(id, drugBody("Dup", sku(skuId, "1 mg"), sku(skuId, "2 mg"), sku("1 mg"))));
    }

    @Test
    void validatesTheDrugIdWithTheBody() {
        assertEquals(List.of(
                        issue("code", "invalid_string", "validation", "regex", "path", List.of("drugId"),
                                "message", "Drug id may contain only letters, digits, '-' and '_'"),
                        issue("code", "invalid_type", "expected", "string", "received", "undefined",
                                "path", List.of("name"), "message", "Required")),
                issuesOf("bad.id", "{\"classification\": \"controlled\", \"skus\": [], \"pharmacy\": {\"id\": \"p\", \"method\": \"none\"}}"));
        assertEquals(List.of(
                        issue("code", "too_big", "maximum", 128, "type", "string", "inclusive", true, "exact", false,
                                "path", List.of("drugId"), "message", "String must contain at most 128 character(s)")),
                issuesOf("a".repeat(129), drugBody("Long")));
        // 128 characters of letters, digits, '-' and '_' is a valid id.
        String longest = ("Ab-_" + drugId("x")).replace('-', '_') + "9".repeat(128);
        createDrug(longest.substring(0, 128), drugBody("Longest"));
    }

    @Test
    void listsEveryDrugWithItsPharmacy() {
        String first = drugId("list-a");
        String second = drugId("list-b");
        createDrug(first, drugBody("List A", sku("1")));
        createDrug(second, """
                {"name": "List B", "classification": "controlled", "skus": [],
                 "pharmacy": {"id": "none", "method": "none"}}""");

        List<Map<String, Object>> drugs = given().when().get("/ops/v1/drugs")
                .then().statusCode(200).contentType(ContentType.JSON).extract().path("drugs");
        Map<String, Object> a = drugs.stream().filter(drug -> first.equals(drug.get("id"))).findFirst().orElseThrow();
        Map<String, Object> b = drugs.stream().filter(drug -> second.equals(drug.get("id"))).findFirst().orElseThrow();
        assertEquals(OPS_DRUG_FIELDS, a.keySet());
        assertEquals(Map.of("id", "pharm-1", "method", "email"), a.get("pharmacy"));
        assertEquals(Map.of("id", "none", "method", "none"), b.get("pharmacy"));
        assertEquals(List.of(), b.get("skus"));
        assertEquals(List.of(), b.get("dosages"));
        assertTrue(drugs.stream().allMatch(drug -> drug.containsKey("pharmacy")));
    }

    @Test
    void answersMalformedBodiesWithTheErrorConventions() {
        given().contentType(ContentType.JSON).body("{\"name\": ").when().put("/ops/v1/drugs/{id}", drugId("json"))
                .then().statusCode(400).body("error", equalTo("Invalid JSON"));
        given().contentType(ContentType.TEXT).body("name").when().put("/ops/v1/drugs/{id}", drugId("text"))
                .then().statusCode(415).body("error", equalTo("Unsupported Media Type"));
        assertEquals(List.of(issue("code", "invalid_type", "expected", "object", "received", "array",
                        "path", List.of(), "message", "Expected object, received array")),
                issuesOf(drugId("array"), "[]"));
    }
}
