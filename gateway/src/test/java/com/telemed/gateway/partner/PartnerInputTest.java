package com.telemed.gateway.partner;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.telemed.gateway.edge.GatewayEdgeTest;
import com.telemed.gateway.edge.UpstreamServer;
import com.telemed.testkit.quarkus.InfrastructureResource;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The gateway's own operator endpoints refuse unstorable text and overlong origins (issue 13), writing nothing. */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = UpstreamServer.class, scope = TestResourceScope.GLOBAL)
class PartnerInputTest {

    @Inject
    AgroalDataSource dataSource;

    private static Response ops(String method, String path, String body) {
        return given().header("x-ops-key", GatewayEdgeTest.OPS_KEY).contentType("application/json").body(body)
                .request(method, path);
    }

    private static void assertRefused(Response response, String issues) {
        response.then().statusCode(400).contentType("application/json");
        assertEquals("{\"error\":[" + issues + "]}", response.asString());
    }

    private long count(String sql, Object parameter) throws Exception {
        try (var connection = dataSource.getConnection(); var query = connection.prepareStatement(sql)) {
            query.setObject(1, parameter);
            try (var row = query.executeQuery()) {
                row.next();
                return row.getLong(1);
            }
        }
    }

    @Test
    void aPartnerNameWithUnstorableTextIsRefusedAndNoPartnerIsMade() throws Exception {
        String name = "Acme " + UUID.randomUUID();
        assertRefused(ops("POST", "/ops/v1/partners", "{\"name\": \"" + name + "\\u0000\"}"),
                "{\"code\":\"custom\",\"path\":[\"name\"],\"message\":\"Invalid character\"}");
        assertEquals(0, count("SELECT count(*) FROM partners WHERE name LIKE ?", name + "%"));
    }

    @Test
    void anOriginPastItsIndexEntryOrWithUnstorableTextIsRefused() throws Exception {
        String id = ops("POST", "/ops/v1/partners", "{\"name\": \"Origins\"}").then().statusCode(201)
                .extract().path("partner.id");
        String origin = "https://" + "a".repeat(3000) + ".example";
        assertRefused(ops("PUT", "/ops/v1/partners/" + id + "/embed-origins", "{\"origins\": [\"" + origin + "\"]}"),
                "{\"code\":\"too_big\",\"maximum\":267,\"type\":\"string\",\"inclusive\":true,\"exact\":false,"
                        + "\"path\":[\"origins\",0],\"message\":\"String must contain at most 267 character(s)\"}");
        assertRefused(ops("PUT", "/ops/v1/partners/" + id + "/embed-origins", "{\"origins\": [\"https://a.example\\ud800\"]}"),
                "{\"code\":\"custom\",\"path\":[\"origins\",0],\"message\":\"Invalid character\"}");
        assertEquals(0, count("SELECT count(*) FROM partner_embed_origins WHERE partner_id = ?", UUID.fromString(id)));
        ops("PUT", "/ops/v1/partners/" + id + "/embed-origins", "{\"origins\": [\"https://" + "a".repeat(253) + ":65535\"]}")
                .then().statusCode(200);
    }
}
