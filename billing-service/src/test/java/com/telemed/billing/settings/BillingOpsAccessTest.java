package com.telemed.billing.settings;

import static com.telemed.testkit.trust.TestPrincipals.ADMIN;
import static com.telemed.testkit.trust.TestPrincipals.SUPPORT;
import static com.telemed.testkit.trust.TestPrincipals.PRESCRIBER;
import static com.telemed.testkit.http.Refusals.assertAnswer;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.telemed.billing.rebuild.OwnersNeighbourResource;
import com.telemed.testkit.quarkus.InfrastructureResource;
import com.telemed.testkit.quarkus.ServiceDatabase;
import com.telemed.testkit.trust.TestServiceProofs;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Who may call billing's /ops operations (platform-commons' access.OpsAccess, issue #40), called as
 * the gateway forwards them: signed, with the principal the proof covers. Partner settings are the
 * administrator's. Each change writes one audit entry in its transaction (people-and-pages.md, "Audit");
 * a refused call writes none.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(OwnersNeighbourResource.class)
class BillingOpsAccessTest {


    @Test
    void anAdministratorSetsAndReadsBillingAndNoOtherRoleMay() {
        String partner = "partner-" + UUID.randomUUID();
        String path = "/ops/v1/partners/" + partner + "/billing";
        String body = "{\"enabled\": true, \"cycle\": \"monthly\", \"ratePerMember\": 10}";
        for (String refused : new String[] {SUPPORT, PRESCRIBER, TestServiceProofs.pharmacy("ph_1"), "service:requests-service"}) {
            assertAnswer(given().header(TestServiceProofs.PRINCIPAL_HEADER, refused).contentType("application/json").body(body).put(path),
                    403, "{\"error\":\"Forbidden\"}");
            assertAnswer(given().header(TestServiceProofs.PRINCIPAL_HEADER, refused).get(path), 403, "{\"error\":\"Forbidden\"}");
            assertAnswer(given().header(TestServiceProofs.PRINCIPAL_HEADER, refused).post(path + "/rebuild"), 403, "{\"error\":\"Forbidden\"}");
        }
        // Nothing was stored by the refused calls.
        assertAnswer(given().header(TestServiceProofs.PRINCIPAL_HEADER, ADMIN).get(path), 404, "{\"error\":\"Billing settings not found\"}");
        assertAnswer(given().header(TestServiceProofs.PRINCIPAL_HEADER, ADMIN).contentType("application/json").body(body).put(path),
                200, "{\"enabled\":true,\"cycle\":\"monthly\",\"weekday\":null,\"ratePerMember\":10}");
        assertAnswer(given().get(path), 200, "{\"enabled\":true,\"cycle\":\"monthly\",\"weekday\":null,\"ratePerMember\":10}");
    }

    @Test
    void aCallWithoutAPrincipalIsAnInvalidToken() {
        assertAnswer(given().header(TestServiceProofs.PRINCIPAL_HEADER, "").get("/ops/v1/partners/partner-x/billing"), 401,
                "{\"error\":\"Invalid token\"}");
    }

    /** The audit entries of {@code partnerId}, each {@code (actor_type,actor_id,action,target_type,target_id,partner_id)}, sorted. */
    public static List<String> auditOf(String partnerId) {
        return ServiceDatabase.texts("select (actor_type, actor_id, action, target_type, target_id, partner_id)::text as entry"
                + " from audit_entries where partner_id = ? order by entry", partnerId);
    }

    @Test
    void eachChangeWritesOneAuditEntryAndARefusedOneNone() {
        String partner = "partner-" + UUID.randomUUID();
        String path = "/ops/v1/partners/" + partner + "/billing";
        String body = "{\"enabled\": true, \"cycle\": \"monthly\", \"ratePerMember\": 10}";
        assertAnswer(given().header(TestServiceProofs.PRINCIPAL_HEADER, SUPPORT).contentType("application/json").body(body).put(path),
                403, "{\"error\":\"Forbidden\"}");
        assertAnswer(given().header(TestServiceProofs.PRINCIPAL_HEADER, SUPPORT).post(path + "/rebuild"), 403, "{\"error\":\"Forbidden\"}");
        given().header(TestServiceProofs.PRINCIPAL_HEADER, ADMIN).contentType("application/json")
                .body("{\"enabled\": true, \"cycle\": \"weekly\", \"ratePerMember\": 10}").put(path).then().statusCode(400);
        assertEquals(List.of(), auditOf(partner));

        given().header(TestServiceProofs.PRINCIPAL_HEADER, ADMIN).contentType("application/json").body(body).put(path)
                .then().statusCode(200);
        assertEquals(List.of("(person,acc_admin,billing_settings.update,billing_settings," + partner + "," + partner + ")"),
                auditOf(partner));
        given().header(TestServiceProofs.PRINCIPAL_HEADER, ADMIN).post(path + "/rebuild").then().statusCode(200);
        assertEquals(List.of("(person,acc_admin,billing_ledger.rebuild,billing_ledger," + partner + "," + partner + ")",
                "(person,acc_admin,billing_settings.update,billing_settings," + partner + "," + partner + ")"), auditOf(partner));
    }
}
