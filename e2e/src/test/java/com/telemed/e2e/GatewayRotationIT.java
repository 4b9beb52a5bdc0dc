package com.telemed.e2e;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import com.telemed.testkit.e2e.RunningPlatform;
import com.telemed.testkit.platform.PlatformService;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** A rotated API key is refused at once by every gateway replica: nothing caches a credential. */
@ExtendWith(RunningPlatform.class)
class GatewayRotationIT {

    @Test
    void secondGatewayRefusesTheOldKeyOnItsVeryNextCall(RunningPlatform.Handle platform) {
        String first = platform.gateway().toString();
        String second = platform.platform().startReplica(PlatformService.GATEWAY).toString();
        ExtractableResponse<Response> created = given().baseUri(first).header("x-ops-key", platform.opsKey())
                .contentType("application/json").body(Map.of("name", "Rotation Health"))
                .post("/ops/v1/partners").then().statusCode(201).extract();
        String partnerId = created.path("partner.id");
        String oldKey = created.path("apiKey");

        // Both replicas know the key (the second one has already looked it up once).
        given().baseUri(first).header("x-api-key", oldKey).get("/v1/drugs").then().statusCode(200);
        given().baseUri(second).header("x-api-key", oldKey).get("/v1/drugs").then().statusCode(200);

        String newKey = given().baseUri(first).header("x-ops-key", platform.opsKey())
                .post("/ops/v1/partners/" + partnerId + "/api-key/rotate")
                .then().statusCode(200).extract().path("apiKey");

        given().baseUri(second).header("x-api-key", oldKey).get("/v1/drugs")
                .then().statusCode(401).body("error", equalTo("Invalid API Key"));
        given().baseUri(first).header("x-api-key", oldKey).get("/v1/drugs")
                .then().statusCode(401).body("error", equalTo("Invalid API Key"));
        given().baseUri(second).header("x-api-key", newKey).get("/v1/drugs").then().statusCode(200);
    }
}
