package com.telemed.webhook.settings;

import static com.telemed.testkit.trust.TestPrincipals.ADMIN;
import static com.telemed.testkit.trust.TestPrincipals.SUPPORT;
import static com.telemed.testkit.trust.TestPrincipals.PRESCRIBER;
import static com.telemed.testkit.http.Refusals.assertAnswer;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.testkit.quarkus.InfrastructureResource;
import com.telemed.testkit.quarkus.ServiceDatabase;
import com.telemed.testkit.trust.TestServiceProofs;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import com.telemed.webhook.support.Events;
import com.telemed.webhook.support.Receiver;
import io.restassured.response.Response;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Who may call webhook-service's /ops operations (platform-commons' access.OpsAccess, issue #40),
 * called as the gateway forwards them: settings and secrets are the administrator's; support reads
 * and redelivers deliveries; a prescriber does neither. Each change writes one audit entry in its
 * transaction (people-and-pages.md, "Audit"); a refused call writes none, nor does reading deliveries.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
class WebhookOpsAccessTest {


    @Test
    void supportReadsDeliveriesButOnlyAnAdministratorChangesSettings() {
        String partner = "partner-" + UUID.randomUUID();
        String deliveries = "/ops/v1/partners/" + partner + "/webhook/deliveries";
        for (String reader : new String[] {ADMIN, SUPPORT}) {
            assertAnswer(given().header(TestServiceProofs.PRINCIPAL_HEADER, reader).get(deliveries), 200, "{\"deliveries\":[]}");
        }
        assertAnswer(given().header(TestServiceProofs.PRINCIPAL_HEADER, PRESCRIBER).get(deliveries), 403, "{\"error\":\"Forbidden\"}");
        for (String refused : new String[] {SUPPORT, PRESCRIBER}) {
            assertAnswer(given().header(TestServiceProofs.PRINCIPAL_HEADER, refused).contentType("application/json").body("{\"url\":null}")
                    .put("/ops/v1/partners/" + partner + "/webhook"), 403, "{\"error\":\"Forbidden\"}");
            assertAnswer(given().header(TestServiceProofs.PRINCIPAL_HEADER, refused).post("/ops/v1/partners/" + partner + "/webhook/secret/rotate"),
                    403, "{\"error\":\"Forbidden\"}");
            assertAnswer(given().header(TestServiceProofs.PRINCIPAL_HEADER, refused).post("/ops/v1/webhook-secrets/re-encrypt"),
                    403, "{\"error\":\"Forbidden\"}");
        }
        assertAnswer(given().header(TestServiceProofs.PRINCIPAL_HEADER, "").get(deliveries), 401, "{\"error\":\"Invalid token\"}");
        given().header(TestServiceProofs.PRINCIPAL_HEADER, ADMIN).contentType("application/json").body("{\"url\":null}")
                .put("/ops/v1/partners/" + partner + "/webhook").then().statusCode(200);
    }

    /** The audit entries {@code accountId} wrote, each {@code (actor_type,actor_id,action,target_type,target_id,partner_id)}, sorted. */
    private static List<String> auditBy(String accountId) {
        return ServiceDatabase.texts("select (actor_type, actor_id, action, target_type, target_id, partner_id)::text as entry"
                + " from audit_entries where actor_id = ? order by entry", accountId);
    }

    /** A delivery the dispatcher finished (delivered), as DeliveryLogTest stages them. */
    private static UUID finishedDelivery(String partnerId) {
        UUID id = UUID.randomUUID();
        Timestamp created = Timestamp.from(Instant.now());
        ServiceDatabase.update("INSERT INTO deliveries (id, partner_id, event_id, event, body, signed_at, signature, status,"
                        + " attempt_count, round_attempts, next_attempt_at, lease_until, created_at, updated_at)"
                        + " VALUES (?, ?, ?, 'item.approved', '{\"event\":\"item.approved\"}', '1763717400', 'sha256=00', 'delivered',"
                        + " 1, 1, NULL, NULL, ?, ?)",
                id, partnerId, Events.newId(), created, created);
        return id;
    }

    @Test
    void eachChangeWritesOneAuditEntryAndARefusedCallOrAReadNone() throws Exception {
        String adminId = "acc-admin-" + UUID.randomUUID();
        String supportId = "acc-support-" + UUID.randomUUID();
        String admin = TestServiceProofs.person(adminId, null, "admin");
        String support = TestServiceProofs.person(supportId, null, "support");
        String partner = "partner-" + UUID.randomUUID();
        String webhook = "/ops/v1/partners/" + partner + "/webhook";
        try (Receiver receiver = Receiver.answering(200)) {
            assertAnswer(given().header(TestServiceProofs.PRINCIPAL_HEADER, support).contentType("application/json").body("{\"url\":null}")
                    .put(webhook), 403, "{\"error\":\"Forbidden\"}");
            given().header(TestServiceProofs.PRINCIPAL_HEADER, admin).contentType("application/json").body("{\"url\":\"ftp://x\"}")
                    .put(webhook).then().statusCode(400);
            assertAnswer(given().header(TestServiceProofs.PRINCIPAL_HEADER, admin).post(webhook + "/secret/rotate"), 404,
                    "{\"error\":\"Webhook not found\"}");
            assertAnswer(given().header(TestServiceProofs.PRINCIPAL_HEADER, support)
                    .post(webhook + "/deliveries/" + UUID.randomUUID() + "/redeliver"), 404, "{\"error\":\"Delivery not found\"}");
            given().header(TestServiceProofs.PRINCIPAL_HEADER, support).get(webhook + "/deliveries").then().statusCode(200);
            assertEquals(List.of(), auditBy(adminId));
            assertEquals(List.of(), auditBy(supportId));

            given().header(TestServiceProofs.PRINCIPAL_HEADER, admin).contentType("application/json")
                    .body("{\"url\":\"" + receiver.url() + "\"}").put(webhook).then().statusCode(200);
            given().header(TestServiceProofs.PRINCIPAL_HEADER, admin).post(webhook + "/secret/rotate").then().statusCode(200);
            given().header(TestServiceProofs.PRINCIPAL_HEADER, admin).post("/ops/v1/webhook-secrets/re-encrypt").then().statusCode(200);
            assertEquals(List.of("(person," + adminId + ",webhook.update,webhook," + partner + "," + partner + ")",
                    "(person," + adminId + ",webhook_secret.re_encrypt,webhook_secret,,)",
                    "(person," + adminId + ",webhook_secret.rotate,webhook_secret," + partner + "," + partner + ")"), auditBy(adminId));

            UUID delivery = finishedDelivery(partner);
            given().header(TestServiceProofs.PRINCIPAL_HEADER, support).post(webhook + "/deliveries/" + delivery + "/redeliver")
                    .then().statusCode(202);
            assertEquals(List.of("(person," + supportId + ",delivery.redeliver,delivery," + delivery + "," + partner + ")"),
                    auditBy(supportId));
            assertTrue(receiver.await(1, 15_000), "redelivered");
        }
    }
}
