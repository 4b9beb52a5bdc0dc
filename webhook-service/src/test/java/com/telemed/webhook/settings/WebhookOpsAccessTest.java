package com.telemed.webhook.settings;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.telemed.testkit.quarkus.InfrastructureResource;
import com.telemed.testkit.trust.TestServiceProofs;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Who may call webhook-service's /ops operations (platform-commons' access.OpsAccess, issue #40),
 * called as the gateway forwards them: settings and secrets are the administrator's; support reads
 * and redelivers deliveries; a prescriber does neither.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
class WebhookOpsAccessTest {

    private static final String ADMIN = TestServiceProofs.person("acc_admin", null, "admin");
    private static final String SUPPORT = TestServiceProofs.person("acc_support", null, "support");
    private static final String PRESCRIBER = TestServiceProofs.person("acc_prescriber", "pr_1", "prescriber");

    private static void answers(Response response, int status, String body) {
        response.then().statusCode(status).contentType("application/json");
        assertEquals(body, response.body().asString());
    }

    @Test
    void supportReadsDeliveriesButOnlyAnAdministratorChangesSettings() {
        String partner = "partner-" + UUID.randomUUID();
        String deliveries = "/ops/v1/partners/" + partner + "/webhook/deliveries";
        for (String reader : new String[] {ADMIN, SUPPORT}) {
            answers(given().header(TestServiceProofs.PRINCIPAL_HEADER, reader).get(deliveries), 200, "{\"deliveries\":[]}");
        }
        answers(given().header(TestServiceProofs.PRINCIPAL_HEADER, PRESCRIBER).get(deliveries), 403, "{\"error\":\"Forbidden\"}");
        for (String refused : new String[] {SUPPORT, PRESCRIBER}) {
            answers(given().header(TestServiceProofs.PRINCIPAL_HEADER, refused).contentType("application/json").body("{\"url\":null}")
                    .put("/ops/v1/partners/" + partner + "/webhook"), 403, "{\"error\":\"Forbidden\"}");
            answers(given().header(TestServiceProofs.PRINCIPAL_HEADER, refused).post("/ops/v1/partners/" + partner + "/webhook/secret/rotate"),
                    403, "{\"error\":\"Forbidden\"}");
            answers(given().header(TestServiceProofs.PRINCIPAL_HEADER, refused).post("/ops/v1/webhook-secrets/re-encrypt"),
                    403, "{\"error\":\"Forbidden\"}");
        }
        answers(given().header(TestServiceProofs.PRINCIPAL_HEADER, "").get(deliveries), 401, "{\"error\":\"Invalid token\"}");
        given().header(TestServiceProofs.PRINCIPAL_HEADER, ADMIN).contentType("application/json").body("{\"url\":null}")
                .put("/ops/v1/partners/" + partner + "/webhook").then().statusCode(200);
    }
}
