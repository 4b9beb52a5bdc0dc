package com.telemed.gateway.openapi;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.telemed.gateway.edge.GatewayEdgeTest;
import com.telemed.gateway.edge.UpstreamServer;
import com.telemed.testkit.quarkus.InfrastructureResource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The documents and the reference page as a running gateway serves them: the partner document
 * without a credential, the operator document only with the operator key (the same refusals as
 * every other {@code /ops} call), and a page that loads nothing but this gateway's own files.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = UpstreamServer.class, scope = TestResourceScope.GLOBAL)
class ApiDocumentsTest {

    @Test
    void thePartnerDocumentIsServedWithoutAKeyAsOpenApi31InJsonAndYaml() throws IOException {
        Response json = given().get("/openapi.json").then().statusCode(200)
                .header("Content-Type", "application/json").extract().response();
        Response yaml = given().get("/openapi.yaml").then().statusCode(200)
                .header("Content-Type", "application/yaml").extract().response();
        for (Response served : List.of(json, yaml)) {
            SwaggerParseResult parsed = OpenApiDocumentTest.parse(served.asString());
            assertEquals(List.of(), parsed.getMessages());
            assertTrue(parsed.getOpenAPI().getOpenapi().startsWith("3.1."));
            assertEquals("x-api-key", parsed.getOpenAPI().getComponents().getSecuritySchemes().get("apiKey").getName());
        }
        JsonNode fromJson = new ObjectMapper().readTree(json.asByteArray());
        assertEquals(fromJson, new YAMLMapper().readTree(yaml.asByteArray()));
        assertTrue(fromJson.path("openapi").asText().startsWith("3.1."));
        assertTrue(fromJson.path("paths").has("/v1/requests"));
        assertTrue(fromJson.path("webhooks").has("item.approved"));
        assertArrayEquals(OpenApiDocuments.partner().json(), json.asByteArray());
    }

    @Test
    void theOperatorDocumentIsRefusedWithoutTheOperatorKeyAsEveryOpsCallIs() {
        for (String path : List.of("/ops/openapi.json", "/ops/openapi.yaml", "/ops/v1/drugs")) {
            given().get(path).then().statusCode(401).body("error", equalTo("Ops Key missing"));
            given().header("x-ops-key", "not-the-key").get(path).then().statusCode(401).body("error", equalTo("Invalid Ops Key"));
        }
        // A partner's credential does not open it either.
        given().header("x-api-key", "apx_00000000000000000000000000000000").get("/ops/openapi.json")
                .then().statusCode(401).body("error", equalTo("Ops Key missing"));
    }

    @Test
    void theOperatorDocumentIsServedWithTheOperatorKey() throws IOException {
        Response json = given().header("x-ops-key", GatewayEdgeTest.OPS_KEY).get("/ops/openapi.json").then().statusCode(200)
                .header("Content-Type", "application/json").extract().response();
        Response yaml = given().header("x-ops-key", GatewayEdgeTest.OPS_KEY).get("/ops/openapi.yaml").then().statusCode(200)
                .header("Content-Type", "application/yaml").extract().response();
        SwaggerParseResult parsed = OpenApiDocumentTest.parse(json.asString());
        assertEquals(List.of(), parsed.getMessages());
        assertTrue(parsed.getOpenAPI().getOpenapi().startsWith("3.1."));
        assertTrue(parsed.getOpenAPI().getPaths().containsKey("/ops/v1/partners"));
        assertEquals(new ObjectMapper().readTree(json.asByteArray()), new YAMLMapper().readTree(yaml.asByteArray()));
    }

    @Test
    void theDocumentsOnlyRead() {
        given().post("/openapi.json").then().statusCode(405).header("Allow", "GET, HEAD")
                .body("error", equalTo("Method Not Allowed"));
        given().head("/openapi.json").then().statusCode(200);
    }

    @Test
    void theReferencePageIsThePartnerDocumentRenderedWithoutScriptUnderAStrictPolicy() {
        Response page = given().get("/docs").then().statusCode(200)
                .header("Content-Type", "text/html; charset=utf-8")
                .header("Content-Security-Policy", "default-src 'none'; script-src 'none'; style-src 'self'; img-src 'self';"
                        + " base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
                .header("X-Content-Type-Options", "nosniff")
                .header("Cache-Control", "no-cache")
                .extract().response();
        assertArrayEquals(ReferencePage.render(OpenApiDocuments.partner().tree()), page.asByteArray());
        given().get("/docs/").then().statusCode(200).header("Content-Type", "text/html; charset=utf-8")
                .header("Content-Security-Policy", ApiDocuments.CONTENT_SECURITY_POLICY);
        given().head("/docs").then().statusCode(200);
        String html = page.asString();
        // What the page loads: its stylesheet and its icon, both from here; no script at all.
        assertEquals(List.of("/docs/reference.css", "/docs/favicon.svg"), references(html));
        assertFalse(html.contains("<script"), "a script on the page");
        given().get("/docs/reference.css").then().statusCode(200).header("Content-Type", "text/css; charset=utf-8")
                .header("Content-Security-Policy", ApiDocuments.CONTENT_SECURITY_POLICY).header("X-Content-Type-Options", "nosniff");
        given().get("/docs/favicon.svg").then().statusCode(200).header("Content-Type", "image/svg+xml");
        for (String reference : references(html)) {
            assertTrue(given().get(reference).then().statusCode(200).extract().asByteArray().length > 0, reference);
        }
        // The policy forbids every script and every other origin.
        assertFalse(ApiDocuments.CONTENT_SECURITY_POLICY.contains("http") || ApiDocuments.CONTENT_SECURITY_POLICY.contains("unsafe"));
        // Swagger UI is gone: its files, and anything else under /docs, are not found.
        for (String gone : List.of("/docs/swagger-ui-bundle.js", "/docs/init.js", "/docs/index.html", "/docs/nothing-here.js")) {
            given().get(gone).then().statusCode(404).body("error", equalTo("Not Found"));
        }
        given().get("/docs/a/b").then().statusCode(404).body("error", equalTo("Not Found"));
        given().post("/docs").then().statusCode(405).header("Allow", "GET, HEAD").body("error", equalTo("Method Not Allowed"));
    }

    /** The resources the page loads: its {@code link}, {@code script} and {@code img} elements' addresses. */
    private static List<String> references(String html) {
        Matcher matcher = Pattern.compile("<(?:link|script|img)\\b[^>]*?\\b(?:src|href)=\"([^\"]*)\"").matcher(html);
        List<String> references = new ArrayList<>();
        while (matcher.find()) {
            references.add(matcher.group(1));
        }
        return references;
    }
}
