package com.telemed.e2e;

import static io.restassured.RestAssured.given;

import com.telemed.testkit.e2e.RunningPlatform;
import io.restassured.http.ContentType;
import java.util.Map;
import java.util.UUID;

/**
 * A partner's request of one item of a new drug ("Sildenafil E2E", one SKU, no pharmacy), for Mary Jackson,
 * approved by a new prescriber through the gateway: the webhooks {@code item.approved} and
 * {@code request.all_approved} follow. Shared by the webhook and events stories.
 */
record OneApproval(String drugId, String prescriberId, String requestId, String itemId) {

    static OneApproval make(RunningPlatform.Handle platform, String apiKey, String drugPrefix, String prescriberName) {
        String gateway = platform.gateway().toString();
        String drugId = drugPrefix + "-e2e-" + UUID.randomUUID().toString().substring(0, 8);
        given().baseUri(gateway).header("x-ops-key", platform.opsKey()).contentType(ContentType.JSON)
                .body("""
                        {"name": "Sildenafil E2E", "classification": "non-controlled",
                         "skus": [{"label": "50 mg", "active": true}], "pharmacy": {"id": "sandbox", "method": "none"}}""")
                .put("/ops/v1/drugs/" + drugId).then().statusCode(200);
        String login = prescriberName.substring(prescriberName.lastIndexOf(' ') + 1).toLowerCase();
        String prescriberId = given().baseUri(gateway).header("x-ops-key", platform.opsKey()).contentType(ContentType.JSON)
                .body(Map.of("name", prescriberName, "email", login + "." + UUID.randomUUID() + "@clinic.example"))
                .post("/ops/v1/prescribers").then().statusCode(201).extract().path("prescriber.id");
        String requestId = given().baseUri(gateway).header("x-api-key", apiKey).contentType(ContentType.JSON).body("""
                        {"caseNotes": "e2e", "items": [{"drugId": "%s", "dosage": "50 mg"}],
                         "member": {"firstName": "Mary", "lastName": "Jackson", "email": "mary.%s@example.com",
                                    "dateOfBirth": "1921-04-09", "state": "VA",
                                    "address": {"street1": "1 Langley Rd", "city": "Hampton", "state": "VA", "zipCode": "23665"}}}"""
                        .formatted(drugId, UUID.randomUUID()))
                .post("/v1/requests").then().statusCode(201).extract().path("requestId");
        String itemId = given().baseUri(gateway).header("x-api-key", apiKey)
                .get("/v1/requests/" + requestId).then().statusCode(200).extract().path("lineItems[0].itemId");
        given().baseUri(gateway).header("x-ops-key", platform.opsKey()).contentType(ContentType.JSON)
                .body(Map.of("prescriberId", prescriberId, "prescription", Map.of("quantity", 8, "daysSupply", 30,
                        "directions", "One before activity", "refills", 3, "dispenseAsWritten", false)))
                .post("/ops/v1/requests/" + requestId + "/items/" + itemId + "/approve").then().statusCode(200);
        return new OneApproval(drugId, prescriberId, requestId, itemId);
    }
}
