package com.telemed.catalogue;

import static io.restassured.RestAssured.given;

import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;

/** Calls and bodies the catalogue tests share. Every test makes its own drug and partner ids. */
public final class CatalogueFixtures {

    public static final Pattern SKU_ID = Pattern.compile("^sku_[a-z0-9]{24}$");

    private CatalogueFixtures() {
    }

    public static String drugId(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    public static String partnerId() {
        return UUID.randomUUID().toString();
    }

    /** A valid drug body with the given SKUs (JSON objects) and an email pharmacy. */
    public static String drugBody(String name, String... skus) {
        return """
                {"name": "%s", "classification": "non-controlled",
                 "skus": [%s],
                 "pharmacy": {"id": "pharm-1", "method": "email"}}""".formatted(name, String.join(", ", skus));
    }

    public static String sku(String label) {
        return "{\"label\": \"" + label + "\", \"active\": true}";
    }

    public static String sku(String id, String label) {
        return "{\"id\": \"" + id + "\", \"label\": \"" + label + "\", \"active\": true}";
    }

    public static Response putDrug(String drugId, String body) {
        return given().contentType(ContentType.JSON).body(body)
                .when().put("/ops/v1/drugs/{id}", drugId);
    }

    /** Creates the drug (expecting 200) and answers its {@code drug} object. */
    public static Map<String, Object> createDrug(String drugId, String body) {
        return putDrug(drugId, body).then().statusCode(200).extract().path("drug");
    }

    public static Response putAccess(String partnerId, String body) {
        return given().contentType(ContentType.JSON).body(body)
                .when().put("/ops/v1/partners/{id}/drug-access", partnerId);
    }

    public static void restrict(String partnerId, String... drugIds) {
        String list = String.join(", ", List.of(drugIds).stream().map(id -> "\"" + id + "\"").toList());
        putAccess(partnerId, "{\"drugIds\": [" + list + "]}").then().statusCode(200);
    }

    /** {@code GET /v1/drugs} as the gateway forwards it for the partner. */
    public static Response partnerDrugs(String partnerId) {
        return given().header("X-Partner-Id", partnerId).when().get("/v1/drugs");
    }

    @SuppressWarnings("unchecked")
    public static List<Map<String, Object>> skusOf(Map<String, Object> drug) {
        return (List<Map<String, Object>>) drug.get("skus");
    }
}
