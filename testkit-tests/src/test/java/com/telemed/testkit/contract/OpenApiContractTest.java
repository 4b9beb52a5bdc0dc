package com.telemed.testkit.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class OpenApiContractTest {

    static final String SAMPLE = resource("/contract/sample-partner.json");
    private static final OpenApiContract CONTRACT = OpenApiContract.parse(SAMPLE);

    private static final String MEMBER = """
            {"id": "3f2c8e0a-0000-4000-8000-000000000000", "firstName": "Ada", "email": "ada@example.com", "phone": "555-0100",
             "address": {"city": "Boston"}}""";

    @Test
    void aConformingBodyHasNoViolation() {
        assertEquals(List.of(), check("POST", "/v1/members", 201, "application/json", "{\"success\": true, \"member\": " + MEMBER + "}"));
        assertEquals(List.of(), check("GET", "/v1/members/abc", 200, "application/json; charset=UTF-8", MEMBER));
    }

    @Test
    void aMissingRequiredFieldIsNamedWithItsPointer() {
        assertEquals(List.of("GET /v1/members/{id} 200: body (root): required property 'email' not found"),
                check("GET", "/v1/members/abc", 200, "application/json", "{\"id\": \"x\", \"firstName\": \"Ada\", \"phone\": null}"));
    }

    @Test
    void aWrongTypeIsNamedWithItsPointer() {
        assertEquals(List.of("GET /v1/members/{id} 200: body /firstName: integer found, string expected"),
                check("GET", "/v1/members/abc", 200, "application/json", MEMBER.replace("\"Ada\"", "42")));
    }

    @Test
    void aNullableFieldTakesNullButNoOtherType() {
        assertEquals(List.of(), check("GET", "/v1/members/abc", 200, "application/json", MEMBER.replace("\"555-0100\"", "null")));
        assertEquals(List.of("GET /v1/members/{id} 200: body /phone: integer found, [string, null] expected"),
                check("GET", "/v1/members/abc", 200, "application/json", MEMBER.replace("\"555-0100\"", "5550100")));
    }

    @Test
    void anUndocumentedStatusIsAViolation() {
        assertEquals(List.of("GET /v1/members/{id}: status 500 not documented (documented: 200, 404)"),
                check("GET", "/v1/members/abc", 500, "application/json", "{\"error\": \"boom\"}"));
    }

    @Test
    void aStatusRangeAndDefaultCountAsDocumented() {
        assertEquals(List.of(), check("POST", "/v1/members", 422, "application/json", "{\"error\": \"Invalid email\"}"));
        assertEquals(List.of("POST /v1/members 422: body /error: integer found, string expected"),
                check("POST", "/v1/members", 422, "application/json", "{\"error\": 5}"));
        assertEquals(List.of(), check("GET", "/attachments/a/b.png", 403, "application/json", "{\"error\": \"Forbidden\"}"));
    }

    @Test
    void anUnknownPathIsAViolationUnlessRefused() {
        assertEquals(List.of("no documented path matches /v1/nothing"), check("GET", "/v1/nothing?x=1", 200, "application/json", "{}"));
        assertEquals(List.of("no documented path matches /v1/members/a/b"), check("GET", "/v1/members/a/b", 200, "application/json", "{}"));
        assertEquals(List.of(), check("GET", "/v1/nothing", 404, "application/json", "{\"error\": \"Not found\"}"));
    }

    @Test
    void anUndocumentedMethodIsAViolationUnlessRefused() {
        assertEquals(List.of("PUT /v1/members/{id}: method not documented (documented: GET, DELETE)"),
                check("PUT", "/v1/members/abc", 200, "application/json", MEMBER));
        assertEquals(List.of(), check("PUT", "/v1/members/abc", 405, "application/json", "{\"error\": \"Method not allowed\"}"));
    }

    @Test
    void aLiteralPathWinsOverATemplatedOne() {
        assertEquals(List.of(), check("GET", "/v1/members/search?search=ada", 200, "application/json", "{\"members\": [" + MEMBER + "]}"));
        // Held to the search schema, not to the member one.
        assertEquals(List.of("GET /v1/members/search 200: body (root): required property 'members' not found"),
                check("GET", "/v1/members/search", 200, "application/json", MEMBER));
        // A parameter takes one whole segment, never an empty one: an empty segment is dropped first.
        assertEquals(List.of("GET /v1/members: method not documented (documented: POST)"),
                check("GET", "/v1/members//", 200, "application/json", MEMBER));
    }

    @Test
    void thePathIsHeldAsTheHttpLayerResolvesIt() {
        assertEquals(List.of(), check("GET", "/v1/members/abc/", 200, "application/json", MEMBER));
        assertEquals(List.of(), check("GET", "/v1//members/./abc", 200, "application/json", MEMBER));
        assertEquals(List.of(), check("GET", "/v1/members/x/../abc", 200, "application/json", MEMBER));
        assertEquals(List.of("GET /v1/members/search 200: body (root): required property 'members' not found"),
                check("GET", "/v1/members/search/?search=ada", 200, "application/json", MEMBER));
    }

    @Test
    void referencesToComponentsResolveInsideTheDocument() {
        assertEquals(List.of("POST /v1/members 201: body /member/address/city: integer found, string expected",
                        "POST /v1/members 201: body /success: must be the constant value 'true'"),
                check("POST", "/v1/members", 201, "application/json",
                        "{\"success\": false, \"member\": " + MEMBER.replace("\"Boston\"", "7") + "}"));
        assertEquals(List.of("GET /v1/members/{id} 404: body (root): required property 'error' not found"),
                check("GET", "/v1/members/abc", 404, "application/json", "{\"message\": \"Member not found\"}"));
    }

    @Test
    void bodiesWhereNoneIsDocumentedAndTheOtherWayRound() {
        assertEquals(List.of(), check("DELETE", "/v1/members/abc", 204, null, ""));
        assertEquals(List.of("DELETE /v1/members/{id} 204: a JSON body where none is documented"),
                check("DELETE", "/v1/members/abc", 204, "application/json", "{}"));
        assertEquals(List.of("GET /v1/members/{id} 200: no body where application/json is documented"),
                check("GET", "/v1/members/abc", 200, "application/json", ""));
        assertEquals(List.of("GET /v1/members/{id} 200: content type text/html not documented (documented: application/json)"),
                check("GET", "/v1/members/abc", 200, "text/html", "<p>hi</p>"));
        assertEquals(List.of("GET /v1/members/{id} 200: body is not JSON"),
                check("GET", "/v1/members/abc", 200, "application/json", "{not json"));
    }

    @Test
    void binaryBodiesAreHeldToTheirStatusAndTypeOnly() {
        assertEquals(List.of(), check("GET", "/attachments/a/scan.png", 200, "image/png", "\u0089PNG..."));
        assertEquals(List.of(), check("GET", "/attachments/a/blob", 200, "application/octet-stream", "\u0000\u0001"));
        assertEquals(List.of("GET /attachments/{id}/{name} 200: content type application/pdf not documented"
                        + " (documented: application/octet-stream, image/*)"),
                check("GET", "/attachments/a/b.pdf", 200, "application/pdf", "%PDF"));
    }

    @Test
    void webhooksAreHeldToTheirEvent() {
        assertEquals(List.of(), webhook("{\"event\": \"item.approved\", \"requestId\": \"r1\", \"timestamp\": \"2026-11-27T03:00:00Z\"}"));
        assertEquals(List.of("webhook item.approved: body (root): required property 'requestId' not found"),
                webhook("{\"event\": \"item.approved\", \"timestamp\": \"2026-11-27T03:00:00Z\"}"));
        assertEquals(List.of("webhook item.approved: body /requestId: integer found, string expected"),
                webhook("{\"event\": \"item.approved\", \"requestId\": 1, \"timestamp\": \"2026-11-27T03:00:00Z\"}"));
    }

    @Test
    void aWebhookRequestBodyByReferenceResolves() {
        assertEquals(List.of(), webhook("{\"event\": \"message.new\", \"messageId\": \"m1\"}"));
        assertEquals(List.of("webhook message.new: body (root): required property 'messageId' not found"),
                webhook("{\"event\": \"message.new\"}"));
    }

    @Test
    void anUnknownEventOrNoEventIsAViolation() {
        assertEquals(List.of("webhook item.exploded: event not documented under webhooks"),
                webhook("{\"event\": \"item.exploded\", \"requestId\": \"r1\"}"));
        assertEquals(List.of("webhook body has no \"event\" field"), webhook("{\"requestId\": \"r1\"}"));
        assertEquals(List.of("webhook body is not JSON"), webhook("event=item.approved"));
        assertEquals(List.of("item.approved", "message.new"), CONTRACT.webhookEvents());
    }

    @Test
    void onlyOpenApi31IsRead() {
        IllegalArgumentException notThreeOne = assertThrows(IllegalArgumentException.class,
                () -> OpenApiContract.parse(SAMPLE.replace("\"3.1.0\"", "\"3.0.3\"")));
        assertEquals("not OpenAPI 3.1: openapi 3.0.3", notThreeOne.getMessage());
        IllegalArgumentException notOpenApi = assertThrows(IllegalArgumentException.class, () -> OpenApiContract.parse("<html>"));
        assertTrue(notOpenApi.getMessage().startsWith("not an OpenAPI document"), notOpenApi.getMessage());
    }

    private static List<String> check(String method, String path, int status, String contentType, String body) {
        return CONTRACT.check(method, path, status, contentType, body.getBytes(StandardCharsets.ISO_8859_1));
    }

    private static List<String> webhook(String body) {
        return CONTRACT.checkWebhook(body.getBytes(StandardCharsets.UTF_8));
    }

    static String resource(String name) {
        try (InputStream in = OpenApiContractTest.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
