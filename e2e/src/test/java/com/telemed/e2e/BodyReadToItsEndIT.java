package com.telemed.e2e;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.telemed.testkit.e2e.RunningPlatform;
import com.telemed.testkit.http.RawHttp;
import io.restassured.http.ContentType;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue #13: a service acts on a body only once it has read all of it. A body whose JSON value
 * ends early (a valid member, then padding or garbage) used to be acted on as soon as the value
 * was parsed: the member was created while the gateway, still streaming a chunked body, answered
 * {@code 413} for the padding. Every service's JSON reader now reads to the end and refuses
 * trailing content ({@code platform-commons} {@code JsonConventions}).
 */
@ExtendWith(RunningPlatform.class)
class BodyReadToItsEndIT {

    @Test
    void aValidValuePaddedPastTheLimitIsRefused413AndNothingIsCreated(RunningPlatform.Handle platform) throws IOException {
        String apiKey = newPartner(platform);
        String email = "padded." + UUID.randomUUID() + "@example.com";
        byte[] body = (member(email) + " ".repeat(150_000)).getBytes(StandardCharsets.UTF_8);

        RawHttp.Response answer = send(platform, apiKey, body, true);

        assertEquals(413, answer.status(), answer.bodyText());
        assertEquals("{\"error\":\"Payload Too Large\"}", answer.bodyText());
        assertNoMember(platform, apiKey);
    }

    @Test
    void aValidValueFollowedByGarbageIsRefused400AndNothingIsCreated(RunningPlatform.Handle platform) throws IOException {
        String apiKey = newPartner(platform);
        String email = "trailing." + UUID.randomUUID() + "@example.com";
        for (boolean chunked : List.of(false, true)) {
            RawHttp.Response answer = send(platform, apiKey, (member(email) + " {\"more\": 1}").getBytes(StandardCharsets.UTF_8), chunked);

            assertEquals(400, answer.status(), answer.bodyText());
            assertEquals("{\"error\":\"Invalid JSON\"}", answer.bodyText());
        }
        assertNoMember(platform, apiKey);
    }

    @Test
    void aValueFollowedByWhitespaceWithinTheLimitIsAccepted(RunningPlatform.Handle platform) throws IOException {
        String apiKey = newPartner(platform);
        String email = "spaced." + UUID.randomUUID() + "@example.com";

        RawHttp.Response answer = send(platform, apiKey, (member(email) + " \n\t ".repeat(1_000)).getBytes(StandardCharsets.UTF_8), true);

        assertEquals(201, answer.status(), answer.bodyText());
        given().baseUri(platform.gateway().toString()).header("x-api-key", apiKey).get("/v1/members")
                .then().statusCode(200).body("pagination.total", equalTo(1)).body("members[0].email", equalTo(email));
    }

    private static RawHttp.Response send(RunningPlatform.Handle platform, String apiKey, byte[] body, boolean chunked)
            throws IOException {
        try (RawHttp http = new RawHttp(platform.gateway(), Duration.ofSeconds(30))) {
            return http.send(new RawHttp.Request("POST", "/v1/members",
                    List.of(new RawHttp.Header("x-api-key", apiKey), new RawHttp.Header("Content-Type", "application/json")),
                    body, chunked));
        }
    }

    /** The partner is new: it has no member at all. */
    private static void assertNoMember(RunningPlatform.Handle platform, String apiKey) {
        given().baseUri(platform.gateway().toString()).header("x-api-key", apiKey).get("/v1/members")
                .then().statusCode(200).body("pagination.total", equalTo(0));
    }

    private static String member(String email) {
        return """
                {"firstName": "Pad", "lastName": "Ding", "email": "%s", "dateOfBirth": "1990-01-01", "state": "NY",
                 "address": {"street1": "1 Main St", "city": "Albany", "state": "NY", "zipCode": "12207"}}""".formatted(email);
    }

    private static String newPartner(RunningPlatform.Handle platform) {
        return given().baseUri(platform.gateway().toString()).header("x-ops-key", platform.opsKey()).contentType(ContentType.JSON)
                .body(Map.of("name", "Body To End E2E " + UUID.randomUUID()))
                .post("/ops/v1/partners").then().statusCode(201).extract().path("apiKey");
    }
}
