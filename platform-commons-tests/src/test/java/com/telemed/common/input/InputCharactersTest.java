package com.telemed.common.input;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Text PostgreSQL cannot store never reaches a resource: every JSON body, query parameter and
 * path parameter is checked by {@link InputCharacters}, with no code in the resource
 * ({@code ProbeResource} has none).
 */
@QuarkusTest
class InputCharactersTest {

    private static final String INVALID = "{\"code\":\"custom\",\"path\":%s,\"message\":\"Invalid character\"}";

    static String issues(String... paths) {
        StringBuilder body = new StringBuilder("{\"error\":[");
        for (int i = 0; i < paths.length; i++) {
            body.append(i == 0 ? "" : ",").append(INVALID.formatted(paths[i]));
        }
        return body.append("]}").toString();
    }

    private static Response post(String path, String json) {
        return given().contentType("application/json; charset=UTF-8").body(json).post(path);
    }

    private static void assertRefused(Response response, String expected) {
        response.then().statusCode(400).contentType("application/json");
        assertEquals(expected, response.asString());
    }

    @Test
    void everyOffendingStringOfABodyIsOneIssueReportedAtOnce() {
        // Checked before the resource's schema: its own issues (invalid email) never mix in.
        assertRefused(post("/probe/json", """
                {"email": "a\\u0000@example.com", "status": "active",
                 "nested": {"ok": "fine \\ud83d\\ude00", "tags": ["x", "\\ud800", "\\udc00y"]},
                 "k\\u0000": 1}"""),
                issues("[\"email\"]", "[\"nested\",\"tags\",1]", "[\"nested\",\"tags\",2]", "[\"k\\u0000\"]"));
    }

    @Test
    void aHighSurrogateAtTheEndOrBeforeAnotherHighIsUnpaired() {
        assertRefused(post("/probe/json", "{\"email\": \"abc\\ud800\", \"status\": \"\\ud800\\ud800\\udc00\"}"),
                issues("[\"email\"]", "[\"status\"]"));
    }

    @Test
    void rawBytesOfASurrogateAreRefused() {
        // "a<ED A0 80>b": U+D800 written as three UTF-8-like bytes instead of an escape.
        ByteArrayOutputStream json = new ByteArrayOutputStream();
        json.writeBytes("{\"email\": \"x@example.com\", \"status\": \"a".getBytes(StandardCharsets.UTF_8));
        json.writeBytes(new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80});
        json.writeBytes("b\"}".getBytes(StandardCharsets.UTF_8));
        assertRefused(given().contentType("application/json").body(json.toByteArray()).post("/probe/json"),
                issues("[\"status\"]"));
    }

    @Test
    void aBodyBoundToARecordIsCheckedToo() {
        assertRefused(post("/probe/record", "{\"email\": \"\\u0000\", \"tags\": [\"\\udfff\"]}"),
                issues("[\"email\"]", "[\"tags\",0]"));
        post("/probe/record", "{\"email\": \"ok@example.com\", \"tags\": [\"\\ud83d\\ude00\"]}")
                .then().statusCode(200).body("email", equalTo("ok@example.com"));
    }

    @Test
    void cleanBodiesPassThroughUntouched() {
        post("/probe/json", "{\"email\": \"jane@example.com\", \"status\": \"active\", \"note\": \"caf\\u00e9 \\ud83d\\ude00\"}")
                .then().statusCode(200).body("ok", equalTo(true));
    }

    @Test
    void unparseableJsonIsStillInvalidJson() {
        assertRefused(post("/probe/record", "{\"email\": \"\\u0000"), "{\"error\":\"Invalid JSON\"}");
        assertRefused(post("/probe/json", "{\"email\": \"\\u0000"), "{\"error\":\"Invalid JSON\"}");
    }

    @Test
    void aQueryParameterIsReportedUnderItsName() {
        assertRefused(given().urlEncodingEnabled(false).get("/probe/query?search=%00"), issues("[\"search\"]"));
        // In the order of the query string, whatever order a map keeps them in.
        assertRefused(given().urlEncodingEnabled(false).get("/probe/query?search=a%00b&other=%00&fine=x"),
                issues("[\"search\"]", "[\"other\"]"));
        assertRefused(given().urlEncodingEnabled(false).get("/probe/query?other=%00&fine=x&search=a%00b&zz=%00"),
                issues("[\"other\"]", "[\"search\"]", "[\"zz\"]"));
        given().urlEncodingEnabled(false).get("/probe/query?search=caf%C3%A9")
                .then().statusCode(200).body("search", equalTo("café"));
    }

    @Test
    void aPathParameterIsReportedUnderItsName() {
        assertRefused(given().urlEncodingEnabled(false).get("/probe/things/a%00b"), issues("[\"thingId\"]"));
        assertRefused(given().urlEncodingEnabled(false).get("/probe/things/%00/parts/%00?q=%00"),
                issues("[\"thingId\"]", "[\"partId\"]", "[\"q\"]"));
        given().get("/probe/things/abc").then().statusCode(200).body("thingId", equalTo("abc"));
    }

    @Test
    void onlyAPlainAsciiRequestLineSkipsTheParameterCheck() {
        assertTrue(InputCharacters.plainAscii("/probe/things/abc/parts/x-1?q=a+b&r=~_.:;,=@!$*()'"));
        assertFalse(InputCharacters.plainAscii("/probe/things/a%00b"), "an escape may decode to anything");
        assertFalse(InputCharacters.plainAscii("/probe/query?search=caf\u00e9"), "not ASCII");
        assertFalse(InputCharacters.plainAscii("/probe/query?search=a\u0000b"), "a control character");
        assertFalse(InputCharacters.plainAscii("/probe/query?search=\ud800"), "a surrogate");
        assertFalse(InputCharacters.plainAscii(null));
        // The plain request lines still reach the resource with their parameters decoded.
        given().urlEncodingEnabled(false).get("/probe/query?search=a+b").then().statusCode(200).body("search", equalTo("a b"));
    }
}
