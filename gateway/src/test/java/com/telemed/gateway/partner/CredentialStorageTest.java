package com.telemed.gateway.partner;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.gateway.edge.GatewayEdgeTest;
import com.telemed.gateway.edge.UpstreamServer;
import com.telemed.testkit.quarkus.InfrastructureResource;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Keys exist only as SHA-256 hashes in the database. */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = UpstreamServer.class, scope = TestResourceScope.GLOBAL)
class CredentialStorageTest {

    @Inject
    AgroalDataSource dataSource;

    @Test
    void storesOnlyHashesOfTheKeys() throws Exception {
        var created = given().header("x-ops-key", GatewayEdgeTest.OPS_KEY).contentType("application/json")
                .body(Map.of("name", "Hash Check")).post("/ops/v1/partners").then().statusCode(201).extract();
        String apiKey = created.path("apiKey");
        String publishableKey = created.path("publishableKey");
        try (var connection = dataSource.getConnection();
             var query = connection.prepareStatement("SELECT * FROM partners WHERE id = ?")) {
            query.setObject(1, UUID.fromString(created.path("partner.id")));
            try (var row = query.executeQuery()) {
                assertTrue(row.next());
                assertEquals(Keys.hash(apiKey), row.getString("api_key_hash"));
                assertEquals(Keys.hash(publishableKey), row.getString("publishable_key_hash"));
                for (int column = 1; column <= row.getMetaData().getColumnCount(); column++) {
                    String value = String.valueOf(row.getObject(column));
                    assertFalse(value.contains(apiKey) || value.contains(publishableKey),
                            "column " + row.getMetaData().getColumnName(column) + " holds a key");
                }
            }
        }
    }

    @Test
    void keysAreDistinctAndMatchOnlyThemselves() {
        String a = Keys.generate(Keys.API_KEY_PREFIX);
        String b = Keys.generate(Keys.API_KEY_PREFIX);
        assertFalse(a.equals(b));
        assertTrue(Keys.matches(a, Keys.hash(a)));
        assertFalse(Keys.matches(b, Keys.hash(a)));
    }
}
