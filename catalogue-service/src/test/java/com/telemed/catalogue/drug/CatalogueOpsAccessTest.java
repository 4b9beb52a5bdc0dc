package com.telemed.catalogue.drug;

import static com.telemed.catalogue.CatalogueFixtures.drugBody;
import static com.telemed.catalogue.CatalogueFixtures.drugId;
import static com.telemed.catalogue.CatalogueFixtures.partnerId;
import static com.telemed.catalogue.CatalogueFixtures.sku;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.telemed.testkit.quarkus.InfrastructureResource;
import com.telemed.testkit.trust.TestServiceProofs;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;

/**
 * Who may call catalogue's /ops operations (platform-commons' access.OpsAccess, issue #40), called as
 * the gateway forwards them: the catalogue and drug access are the administrator's; a prescriber
 * reads the catalogue (to choose a drug when approving), support does not.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
class CatalogueOpsAccessTest {

    private static final String ADMIN = TestServiceProofs.person("acc_admin", null, "admin");
    private static final String SUPPORT = TestServiceProofs.person("acc_support", null, "support");
    private static final String PRESCRIBER = TestServiceProofs.person("acc_prescriber", "pr_1", "prescriber");

    private static void forbidden(Response response) {
        response.then().statusCode(403).contentType("application/json");
        assertEquals("{\"error\":\"Forbidden\"}", response.body().asString());
    }

    @Test
    void anAdministratorChangesTheCatalogueAPrescriberReadsItSupportNeither() {
        String drugId = drugId("access");
        String body = drugBody("Access Drug", sku("1 mg"));
        for (String refused : new String[] {SUPPORT, PRESCRIBER, TestServiceProofs.pharmacy("ph_1")}) {
            forbidden(given().header(TestServiceProofs.PRINCIPAL_HEADER, refused).contentType(ContentType.JSON).body(body)
                    .put("/ops/v1/drugs/{id}", drugId));
            forbidden(given().header(TestServiceProofs.PRINCIPAL_HEADER, refused).contentType(ContentType.JSON)
                    .body("{\"drugIds\": null}").put("/ops/v1/partners/{id}/drug-access", partnerId()));
        }
        forbidden(given().header(TestServiceProofs.PRINCIPAL_HEADER, SUPPORT).get("/ops/v1/drugs"));
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
}
