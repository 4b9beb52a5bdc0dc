package com.telemed.billing.settings;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.telemed.billing.rebuild.OwnersNeighbourResource;
import com.telemed.testkit.quarkus.InfrastructureResource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** {@code PUT}/{@code GET /ops/v1/partners/:id/billing} (operations-api.md, "Partner settings"). */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(OwnersNeighbourResource.class)
class BillingSettingsTest {

    private static String partner() {
        return "partner-" + UUID.randomUUID();
    }

    private static Response put(String partner, String body) {
        return given().contentType("application/json").body(body).put("/ops/v1/partners/" + partner + "/billing");
    }

    private static Map<String, Object> settings(boolean enabled, String cycle, Integer weekday, Object rate) {
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("enabled", enabled);
        settings.put("cycle", cycle);
        settings.put("weekday", weekday);
        settings.put("ratePerMember", rate);
        return settings;
    }

    @Test
    void monthlyAndWeeklySettingsAreStoredAndRead() {
        String partner = partner();
        given().get("/ops/v1/partners/" + partner + "/billing").then().statusCode(404)
                .body("error", equalTo("Billing settings not found"));
        Response monthly = put(partner, "{\"enabled\": true, \"cycle\": \"monthly\", \"ratePerMember\": 49.990}");
        monthly.then().statusCode(200);
        assertEquals(settings(true, "monthly", null, 49.99f), monthly.jsonPath().getMap(""));
        Response weekly = put(partner, "{\"enabled\": false, \"cycle\": \"weekly\", \"weekday\": 7, \"ratePerMember\": 12}");
        assertEquals(settings(false, "weekly", 7, 12), weekly.jsonPath().getMap(""));
        assertEquals(settings(false, "weekly", 7, 12),
                given().get("/ops/v1/partners/" + partner + "/billing").then().statusCode(200).extract().jsonPath().getMap(""));
    }

    @Test
    void malformedSettingsAreIssueArraysAndStoreNothing() {
        String partner = partner();
        put(partner, "{\"enabled\": true, \"cycle\": \"weekly\", \"ratePerMember\": 10}").then().statusCode(400)
                .body("error[0].code", equalTo("custom"))
                .body("error[0].path", equalTo(List.of("weekday")))
                .body("error[0].message", equalTo("weekday is required for a weekly cycle"));
        put(partner, "{\"enabled\": true, \"cycle\": \"monthly\", \"weekday\": 1, \"ratePerMember\": 10}").then().statusCode(400)
                .body("error[0].message", equalTo("weekday is only for a weekly cycle"));
        put(partner, "{\"enabled\": true, \"cycle\": \"weekly\", \"weekday\": 8, \"ratePerMember\": 10}").then().statusCode(400)
                .body("error[0].code", equalTo("too_big"))
                .body("error[0].path", equalTo(List.of("weekday")));
        put(partner, "{\"enabled\": true, \"cycle\": \"daily\", \"ratePerMember\": -1}").then().statusCode(400)
                .body("error[0].code", equalTo("invalid_enum_value"))
                .body("error[0].path", equalTo(List.of("cycle")))
                .body("error[1].code", equalTo("too_small"))
                .body("error[1].path", equalTo(List.of("ratePerMember")));
        put(partner, "{}").then().statusCode(400).body("error.size()", equalTo(3));
        given().contentType("application/json").put("/ops/v1/partners/" + partner + "/billing").then().statusCode(400);
        given().get("/ops/v1/partners/" + partner + "/billing").then().statusCode(404);
    }

    @Test
    void concurrentFirstSettingsOfOnePartnerAllSucceed() {
        String partner = partner();
        List<CompletableFuture<Integer>> puts = List.of(1, 2, 3, 4).stream()
                .map(rate -> CompletableFuture.supplyAsync(() ->
                        put(partner, "{\"enabled\": true, \"cycle\": \"monthly\", \"ratePerMember\": " + rate + "}").statusCode()))
                .toList();
        assertEquals(List.of(200, 200, 200, 200), puts.stream().map(CompletableFuture::join).toList());
    }
}
