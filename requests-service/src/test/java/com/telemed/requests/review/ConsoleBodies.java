package com.telemed.requests.review;

import static com.telemed.testkit.quarkus.ServiceDatabase.rows;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.telemed.requests.request.RequestFixtures;
import io.restassured.path.json.JsonPath;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The console's bodies as the contract writes them, field by field in the contract's order, for exact
 * comparison: a request as {@code ReviewViews.Reviewed} gives it. What the test cannot know in advance
 * (instants, the provider set by a first claim) comes from the partner's own read of the request; the
 * SKU fields the partner read does not show come from the item's row.
 */
final class ConsoleBodies {

    private static final ObjectMapper JSON = new ObjectMapper();

    private ConsoleBodies() {
    }

    static String json(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A pending request of member "Ada Lovelace" (CA) with the fixtures' case notes. */
    static Map<String, Object> reviewed(String partner, String requestId) {
        JsonPath read = RequestFixtures.get(partner, requestId).then().statusCode(200).extract().jsonPath();
        Map<String, Object> request = new LinkedHashMap<>();
        request.put("id", requestId);
        request.put("partnerId", partner);
        request.put("memberId", read.getString("memberId"));
        request.put("memberName", "Ada Lovelace");
        request.put("memberState", "CA");
        request.put("status", "pending");
        request.put("storedStatus", "pending");
        request.put("prescriberId", storedPrescriber(requestId));
        request.put("providerId", read.getString("providerId"));
        request.put("caseNotes", "Patient reports mild symptoms");
        List<Map<String, Object>> items = read.getList("lineItems");
        request.put("lineItems", items.stream().map(ConsoleBodies::item).toList());
        request.put("createdAt", read.getString("createdAt"));
        request.put("updatedAt", read.getString("updatedAt"));
        return request;
    }

    private static Object storedPrescriber(String requestId) {
        Object prescriber = rows("SELECT prescriber_id FROM requests WHERE id = ?", UUID.fromString(requestId))
                .get(0).get("prescriber_id");
        return prescriber == null ? null : prescriber.toString();
    }

    private static Map<String, Object> item(Map<String, Object> read) {
        Map<String, Object> stored = rows("SELECT requested_sku_id, requested_sku, selected_sku_id FROM line_items WHERE id = ?",
                UUID.fromString((String) read.get("itemId"))).get(0);
        Map<String, Object> item = new LinkedHashMap<>();
        item.put("itemId", read.get("itemId"));
        item.put("drugId", read.get("drugId"));
        item.put("drugName", read.get("drugName"));
        item.put("dosage", read.get("dosage"));
        item.put("requestedSkuId", stored.get("requested_sku_id"));
        item.put("requestedSku", stored.get("requested_sku"));
        item.put("selectedSkuId", stored.get("selected_sku_id"));
        item.put("status", read.get("status"));
        item.put("prescriberId", read.get("prescriberId"));
        item.put("pharmacyId", read.get("pharmacyId"));
        return item;
    }
}
