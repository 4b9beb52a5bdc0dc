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
    void theReferencePageLoadsOnlyThisGatewaysFilesAndShowsThePartnerDocument() {
        Response page = given().get("/docs").then().statusCode(200)
                .header("Content-Type", "text/html; charset=utf-8")
                .header("Content-Security-Policy", ApiDocuments.CONTENT_SECURITY_POLICY)
                .extract().response();
        given().get("/docs/").then().statusCode(200).header("Content-Type", "text/html; charset=utf-8");
        String html = page.asString();
        List<String> references = references(html);
        assertEquals(List.of("/docs/swagger-ui.css", "/docs/favicon.ico", "/docs/swagger-ui-bundle.js",
                "/docs/swagger-ui-standalone-preset.js", "/docs/init.js"), references);
        for (String reference : references) {
            Response asset = given().get(reference).then().statusCode(200).extract().response();
            assertTrue(asset.asByteArray().length > 0, reference);
        }
        assertFalse(html.contains("http:") || html.contains("https:") || html.contains("//cdn"), html);
        // The page's configuration: the partner document of this gateway, no validator badge (an external call).
        String init = given().get("/docs/init.js").then().statusCode(200)
                .header("Content-Type", "text/javascript; charset=utf-8").extract().asString();
        assertTrue(init.contains("url: '/openapi.json'"), init);
        assertTrue(init.contains("validatorUrl: null"), init);
        assertFalse(init.contains("http:") || init.contains("https:"), init);
        // The policy forbids the browser any other origin.
        assertTrue(ApiDocuments.CONTENT_SECURITY_POLICY.startsWith("default-src 'none'; script-src 'self';"));
        assertFalse(ApiDocuments.CONTENT_SECURITY_POLICY.contains("http"));
        // Swagger UI 5 (renders OpenAPI 3.1).
        String bundle = given().get("/docs/swagger-ui-bundle.js").then().statusCode(200).extract().asString();
        assertTrue(bundle.contains("\"5."), "not Swagger UI 5");
        given().get("/docs/nothing-here.js").then().statusCode(404).body("error", equalTo("Not Found"));
        given().get("/docs/a/b").then().statusCode(404).body("error", equalTo("Not Found"));
    }

    private static List<String> references(String html) {
        Matcher matcher = Pattern.compile("(?:src|href)=\"([^\"]*)\"").matcher(html);
        List<String> references = new ArrayList<>();
        while (matcher.find()) {
            references.add(matcher.group(1));
        }
        return references;
    }
}
