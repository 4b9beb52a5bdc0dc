package com.telemed.common.error;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.containsString;

import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every failure path answers the contract's JSON error body; ids, time and partner follow the conventions. */
@QuarkusTest
class ConventionsTest {

    @Test
    void unknownPathIsJson404() {
        given().get("/nowhere").then().statusCode(404).contentType("application/json").body("error", equalTo("Not Found"));
    }

    @Test
    void unparseableJsonIs400InvalidJson() {
        given().contentType("application/json").body("{\"email\": ").post("/probe/json")
                .then().statusCode(400).contentType("application/json").body("error", equalTo("Invalid JSON"));
    }

    @Test
    void aValueFollowedByMoreIs400InvalidJsonWhetherTreeOrRecord() {
        for (String path : new String[] {"/probe/json", "/probe/record"}) {
            for (String trailing : new String[] {" {\"email\": \"b@example.com\"}", " x", "]", " 1"}) {
                given().contentType("application/json").body("{\"email\": \"a@example.com\"}" + trailing).post(path)
                        .then().statusCode(400).contentType("application/json").body("error", equalTo("Invalid JSON"));
            }
        }
    }

    @Test
    void aBodyThatDoesNotBindToTheRecordIs400InvalidJson() {
        for (String body : new String[] {"[]", "\"a@example.com\"", "{\"tags\": {\"a\": 1}}"}) {
            given().contentType("application/json").body(body).post("/probe/record")
                    .then().statusCode(400).contentType("application/json").body("error", equalTo("Invalid JSON"));
        }
    }

    @Test
    void aValueFollowedByWhitespaceIsRead() {
        given().contentType("application/json").body("{\"email\": \"a@example.com\"} \n\t\r\n ").post("/probe/record")
                .then().statusCode(200);
    }

    @Test
    void wrongContentTypeIs415() {
        given().contentType("text/plain").body("hello").post("/probe/json")
                .then().statusCode(415).contentType("application/json").body("error", equalTo("Unsupported Media Type"));
    }

    @Test
    void wrongMethodIs405Json() {
        given().delete("/probe/json")
                .then().statusCode(405).contentType("application/json").body("error", equalTo("Method Not Allowed"));
    }

    @Test
    void unexpectedFailureLeaksNothing() {
        given().get("/probe/boom")
                .then().statusCode(500).contentType("application/json")
                .body("error", equalTo("Internal Server Error"))
                .body(not(containsString("jane@example.com")))
                .body(not(containsString("IllegalStateException")));
    }

    @Test
    void namedFailureCarriesItsText() {
        given().get("/probe/not-found").then().statusCode(404).body("error", equalTo("Member not found"));
    }

    @Test
    void validationReportsEveryIssueAtOnceZodStyle() {
        given().contentType("application/json").body(Map.of("email", "nope", "status", "x")).post("/probe/json")
                .then().statusCode(400)
                .body("error.size()", equalTo(2))
                .body("error[0]", equalTo(Map.of("code", "invalid_string", "validation", "email",
                        "path", List.of("email"), "message", "Invalid email")))
                .body("error[1].code", equalTo("invalid_enum_value"))
                .body("error[1].received", equalTo("x"))
                .body("error[1].options", equalTo(List.of("active", "paused", "cancelled")))
                .body("error[1].path", equalTo(List.of("status")))
                .body("error[1].message", equalTo("Invalid enum value. Expected 'active' | 'paused' | 'cancelled', received 'x'"));
    }

    @Test
    void hugeNumbersAreValidatedNotFailedOn() {
        given().contentType("application/json").body("{\"email\": 1e309, \"status\": \"active\"}").post("/probe/json")
                .then().statusCode(400)
                .body("error[0].code", equalTo("invalid_type"))
                .body("error[0].received", equalTo("number"));
    }

    @Test
    void missingFieldsAreRequired() {
        given().contentType("application/json").body("{}").post("/probe/json")
                .then().statusCode(400)
                .body("error[0]", equalTo(Map.of("code", "invalid_type", "expected", "string", "received", "undefined",
                        "path", List.of("email"), "message", "Required")))
                .body("error[1].path", equalTo(List.of("status")));
    }

    @Test
    void requestIdIsEchoedOrGenerated() {
        given().header("X-Request-Id", "abc-123").get("/probe/not-found").then().header("X-Request-Id", "abc-123");
        given().get("/probe/not-found").then()
                .header("X-Request-Id", matchesPattern("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"));
    }

    @Test
    void timestampsAreUtcWithMilliseconds() {
        given().get("/probe/time").then().statusCode(200)
                .body("at", equalTo("2026-11-21T09:30:00.123Z"))
                .body("whole", equalTo("2026-11-21T09:30:00.000Z"));
    }

    @Test
    void partnerComesOnlyFromTheInternalHeader() {
        given().get("/probe/partner").then().statusCode(401).body("error", equalTo("API Key missing"));
        given().header("X-Partner-Id", "p-1").get("/probe/partner").then().statusCode(200).body("partnerId", equalTo("p-1"));
    }
}
