package com.telemed.gateway.edge;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.testkit.metrics.PrometheusText;
import com.telemed.testkit.quarkus.InfrastructureResource;
import com.telemed.testkit.quarkus.ManagementPort;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The gateway's HTTP server metrics name a call by its routing-table entry, never by its path: a
 * path's ids and tokens would make a series per call.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = UpstreamServer.class, scope = TestResourceScope.GLOBAL)
class GatewayMetricsTest {

    private static final Pattern UUID_IN = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
    private static final String REQUESTS = "http_server_requests_seconds_count";

    @Test
    void aProxiedCallIsTaggedWithItsRouteAndNoTagCarriesAnId() {
        GatewayEdgeTest.Credentials partner = GatewayEdgeTest.newPartner();
        // Other tests of this application (one per test JVM) call these routes too: count this test's calls only.
        Map<String, String> requestsRead = Map.of("method", "GET", "status", "200", "outcome", "SUCCESS", "uri", "/v1/requests/**");
        Map<String, String> membersRefused = Map.of("method", "GET", "status", "401", "uri", "/v1/members/**");
        PrometheusText before = scrape();
        String requestId = UUID.randomUUID().toString();
        given().header("x-api-key", partner.apiKey()).get("/v1/requests/" + requestId).then().statusCode(200);
        given().header("x-api-key", partner.apiKey()).get("/v1/requests/" + requestId + "/items/" + UUID.randomUUID())
                .then().statusCode(200);
        given().get("/v1/members/" + UUID.randomUUID()).then().statusCode(401);
        given().get("/nowhere/" + UUID.randomUUID()).then().statusCode(404);
        given().get("/attachments/" + UUID.randomUUID() + "/scan.pdf").then().statusCode(200);
        given().get("/book/" + UUID.randomUUID()).then().statusCode(200);

        PrometheusText scrape = scrape();

        assertEquals(2.0, count(scrape, requestsRead) - count(before, requestsRead));
        assertEquals(1.0, count(scrape, membersRefused) - count(before, membersRefused));
        assertTrue(count(scrape, Map.of("method", "GET", "status", "404", "uri", "NOT_FOUND")) >= 1.0);
        assertTrue(count(scrape, Map.of("status", "200", "uri", "/attachments/{token}/{fileName}")) >= 1.0);
        assertTrue(count(scrape, Map.of("method", "GET", "status", "200", "uri", "/book/**")) >= 1.0);
        // The gateway's own operator endpoints keep Quarkus REST's template.
        assertTrue(count(scrape, Map.of("method", "POST", "status", "201", "uri", "/ops/v1/partners")) >= 1.0);
        for (PrometheusText.Sample sample : scrape.named(REQUESTS)) {
            assertFalse(UUID_IN.matcher(sample.label("uri")).find(), sample.toString());
            assertFalse(sample.label("uri").startsWith("/q/"), sample.toString());
        }
    }

    private static PrometheusText scrape() {
        return PrometheusText.parse(ManagementPort.given().get("/q/metrics").then().statusCode(200).extract().asString());
    }

    private static double count(PrometheusText scrape, Map<String, String> labels) {
        return scrape.find(REQUESTS, labels).stream().mapToDouble(PrometheusText.Sample::value).sum();
    }
}
