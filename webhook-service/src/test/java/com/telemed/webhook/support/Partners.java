package com.telemed.webhook.support;

import static io.restassured.RestAssured.given;

import java.util.UUID;

/** Partners set up through the operator API, as the back office does. */
public final class Partners {

    private Partners() {
    }

    public static String newPartner() {
        return UUID.randomUUID().toString();
    }

    /** Saves the URL and answers the partner's secret. */
    public static String setUrl(String partnerId, String url) {
        return given().contentType("application/json").body("{\"url\":\"" + url + "\"}")
                .when().put("/ops/v1/partners/" + partnerId + "/webhook")
                .then().statusCode(200).extract().path("secret");
    }
}
