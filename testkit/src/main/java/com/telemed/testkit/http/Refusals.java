package com.telemed.testkit.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.restassured.response.Response;

/**
 * The exact 400 bodies of refused input, issue by issue as the validator writes them (the
 * contract's issue array), and the assertion that a response is exactly that array; and exact
 * refusals of other kinds ({@link #assertAnswer}, {@link #assertForbidden}). {@code path}
 * is the issue's path as JSON, e.g. {@code ["address","zipCode"]}.
 */
public final class Refusals {

    private Refusals() {
    }

    public static String invalidCharacter(String path) {
        return custom(path, "Invalid character");
    }

    public static String custom(String path, String message) {
        return "{\"code\":\"custom\",\"path\":" + path + ",\"message\":\"" + message + "\"}";
    }

    public static String tooLong(String path, int maximum) {
        return "{\"code\":\"too_big\",\"maximum\":" + maximum + ",\"type\":\"string\",\"inclusive\":true,\"exact\":false,"
                + "\"path\":" + path + ",\"message\":\"String must contain at most " + maximum + " character(s)\"}";
    }

    public static String tooBig(String path, long maximum) {
        return "{\"code\":\"too_big\",\"maximum\":" + maximum + ",\"type\":\"number\",\"inclusive\":true,\"exact\":false,"
                + "\"path\":" + path + ",\"message\":\"Number must be less than or equal to " + maximum + "\"}";
    }

    public static String tooSmall(String path, long minimum) {
        return "{\"code\":\"too_small\",\"minimum\":" + minimum + ",\"type\":\"number\",\"inclusive\":true,\"exact\":false,"
                + "\"path\":" + path + ",\"message\":\"Number must be greater than or equal to " + minimum + "\"}";
    }

    public static String tooManyDecimals(String path) {
        return "{\"code\":\"not_multiple_of\",\"multipleOf\":0.000001,\"path\":" + path
                + ",\"message\":\"Number must be a multiple of 0.000001\"}";
    }

    public static String invalidDatetime(String path) {
        return "{\"code\":\"invalid_string\",\"validation\":\"datetime\",\"path\":" + path + ",\"message\":\"Invalid datetime\"}";
    }

    /** Exactly {@code 400 {"error":[issues...]}} as JSON. */
    public static void assertRefused(Response response, String... issues) {
        response.then().statusCode(400).contentType("application/json");
        assertEquals("{\"error\":[" + String.join(",", issues) + "]}", response.asString());
    }

    /** Exactly {@code status} with the JSON {@code body}. */
    public static void assertAnswer(Response response, int status, String body) {
        response.then().statusCode(status).contentType("application/json");
        assertEquals(body, response.asString());
    }

    /** Exactly {@code 403 {"error":"Forbidden"}}: a role the operation's row lacks (access.OpsAccess). */
    public static void assertForbidden(Response response) {
        assertAnswer(response, 403, "{\"error\":\"Forbidden\"}");
    }
}
