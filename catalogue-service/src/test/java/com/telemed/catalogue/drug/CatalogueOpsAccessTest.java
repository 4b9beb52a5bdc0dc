package com.telemed.catalogue.drug;

import static com.telemed.testkit.trust.TestPrincipals.ADMIN;
import static com.telemed.testkit.trust.TestPrincipals.SUPPORT;
import static com.telemed.testkit.trust.TestPrincipals.PRESCRIBER;
import static com.telemed.testkit.http.Refusals.assertForbidden;
import static com.telemed.catalogue.CatalogueFixtures.drugBody;
import static com.telemed.catalogue.CatalogueFixtures.drugId;
import static com.telemed.catalogue.CatalogueFixtures.partnerId;
import static com.telemed.catalogue.CatalogueFixtures.sku;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.telemed.testkit.quarkus.InfrastructureResource;
import com.telemed.testkit.quarkus.ServiceDatabase;
import com.telemed.testkit.trust.TestServiceProofs;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Who may call catalogue's /ops operations (platform-commons' access.OpsAccess, issue #40), called as
 * the gateway forwards them: the catalogue and drug access are the administrator's; a prescriber
 * reads the catalogue (to choose a drug when approving), support does not. Every change writes one
 * audit entry in its transaction (people-and-pages.md, "Audit"); a refused call writes none.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
class CatalogueOpsAccessTest {


    private static void assertForbidden(Response response) {
        response.then().statusCode(403).contentType("application/json");
        assertEquals("{\"error\":\"Forbidden\"}", response.body().asString());
    }

    @Test
    void anAdministratorChangesTheCatalogueAPrescriberReadsItSupportNeither() {
        String drugId = drugId("access");
        String body = drugBody("Access Drug", sku("1 mg"));
        for (String refused : new String[] {SUPPORT, PRESCRIBER, TestServiceProofs.pharmacy("ph_1")}) {
            assertForbidden(given().header(TestServiceProofs.PRINCIPAL_HEADER, refused).contentType(ContentType.JSON).body(body)
                    .put("/ops/v1/drugs/{id}", drugId));
            assertForbidden(given().header(TestServiceProofs.PRINCIPAL_HEADER, refused).contentType(ContentType.JSON)
                    .body("{\"drugIds\": null}").put("/ops/v1/partners/{id}/drug-access", partnerId()));
        }
        assertForbidden(given().header(TestServiceProofs.PRINCIPAL_HEADER, SUPPORT).get("/ops/v1/drugs"));
        given().header(TestServiceProofs.PRINCIPAL_HEADER, ADMIN).contentType(ContentType.JSON).body(body)
                .put("/ops/v1/drugs/{id}", drugId).then().statusCode(200);
        for (String reader : new String[] {ADMIN, PRESCRIBER}) {
            given().header(TestServiceProofs.PRINCIPAL_HEADER, reader).get("/ops/v1/drugs").then().statusCode(200)
                    .body("drugs.id", hasItem(drugId));
        }
        Response none = given().header(TestServiceProofs.PRINCIPAL_HEADER, "").get("/ops/v1/drugs");
        none.then().statusCode(401);
        assertEquals("{\"error\":\"Invalid token\"}", none.body().asString());
    }

    /** The audit entries of {@code targetId}, each {@code (actor_type,actor_id,action,target_type,target_id,partner_id)}, sorted. */
    static List<String> auditOf(String targetId) {
        return ServiceDatabase.texts("select (actor_type, actor_id, action, target_type, target_id, partner_id)::text as entry"
                + " from audit_entries where target_id = ? order by entry", targetId);
    }

    static void writtenBetween(String targetId, Instant from, Instant to) {
        Instant at = ((Timestamp) ServiceDatabase.rows("select at from audit_entries where target_id = ?", targetId)
                .get(0).get("at")).toInstant();
        assertFalse(at.isBefore(from.minusMillis(1)) || at.isAfter(to), at + " not in the call");
    }

    @Test
    void eachChangeWritesOneAuditEntryAndARefusedOneNone() {
        String drugId = drugId("audited");
        String partnerId = partnerId();
        String body = drugBody("Audited Drug", sku("1 mg"));
        Instant before = Instant.now();

        assertForbidden(given().header(TestServiceProofs.PRINCIPAL_HEADER, SUPPORT).contentType(ContentType.JSON).body(body)
                .put("/ops/v1/drugs/{id}", drugId));
        given().header(TestServiceProofs.PRINCIPAL_HEADER, ADMIN).contentType(ContentType.JSON).body("{\"name\":\"\"}")
                .put("/ops/v1/drugs/{id}", drugId).then().statusCode(400);
        assertForbidden(given().header(TestServiceProofs.PRINCIPAL_HEADER, PRESCRIBER).contentType(ContentType.JSON)
                .body("{\"drugIds\": null}").put("/ops/v1/partners/{id}/drug-access", partnerId));
        assertEquals(List.of(), auditOf(drugId));
        assertEquals(List.of(), auditOf(partnerId));

        given().header(TestServiceProofs.PRINCIPAL_HEADER, ADMIN).contentType(ContentType.JSON).body(body)
                .put("/ops/v1/drugs/{id}", drugId).then().statusCode(200);
        assertEquals(List.of("(person,acc_admin,drug.update,drug," + drugId + ",)"), auditOf(drugId));
        writtenBetween(drugId, before, Instant.now());

        given().header(TestServiceProofs.PRINCIPAL_HEADER, ADMIN).contentType(ContentType.JSON)
                .body("{\"drugIds\": [\"" + drugId + "\"]}").put("/ops/v1/partners/{id}/drug-access", partnerId).then().statusCode(200);
        given().contentType(ContentType.JSON).body("{\"drugIds\": null}").put("/ops/v1/partners/{id}/drug-access", partnerId)
                .then().statusCode(200);
        assertEquals(List.of("(operator_key,service,drug_access.update,drug_access," + partnerId + "," + partnerId + ")",
                "(person,acc_admin,drug_access.update,drug_access," + partnerId + "," + partnerId + ")"), auditOf(partnerId));
    }

    @Test
    void anIdOfAnyTextIsAuditedAsTheServiceAcceptedIt() {
        // A partner id in the path is any text the service accepts (the bad-input property sends such):
        // its audit entry never fails the call.
        String partnerId = "odd id é+* " + java.util.UUID.randomUUID();
        given().header(TestServiceProofs.PRINCIPAL_HEADER, ADMIN).contentType(ContentType.JSON)
                .body("{\"drugIds\": null}").put("/ops/v1/partners/{id}/drug-access", partnerId).then().statusCode(200);
        assertEquals(List.of("(person,acc_admin,drug_access.update,drug_access,\"" + partnerId + "\",\"" + partnerId + "\")"),
                auditOf(partnerId));
    }
}
