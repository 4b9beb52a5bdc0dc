package com.telemed.catalogue.input;

import static com.telemed.catalogue.CatalogueFixtures.drugBody;
import static com.telemed.catalogue.CatalogueFixtures.drugId;
import static com.telemed.catalogue.CatalogueFixtures.partnerId;
import static com.telemed.catalogue.CatalogueFixtures.putAccess;
import static com.telemed.catalogue.CatalogueFixtures.putDrug;
import static com.telemed.catalogue.CatalogueFixtures.sku;
import static com.telemed.testkit.http.Refusals.assertRefused;
import static com.telemed.testkit.http.Refusals.invalidCharacter;
import static com.telemed.testkit.http.Refusals.tooLong;
import static com.telemed.testkit.quarkus.ServiceDatabase.count;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.telemed.testkit.quarkus.InfrastructureResource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Catalogue operations input that used to answer 500 (issue 13): unstorable text, numbers past a
 * numeric column, ids past their index entry. Each is a 400 issue array and stores nothing.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
class CatalogueInputTest {

    private static final Duration FAST = Duration.ofSeconds(5);

    private static long drugs(String id) {
        return count("SELECT count(*) FROM drugs WHERE id = ?", id);
    }

    @Test
    void aDrugWithUnstorableTextIsOneIssuePerStringAndIsNotStored() {
        String id = drugId("chars");
        Response response = assertTimeoutPreemptively(FAST, () -> putDrug(id, """
                {"name": "Sema\\u0000glutide", "description": "\\ud800", "classification": "non-controlled",
                 "skus": [{"label": "0.25 mg", "active": true}, {"label": "0.5\\udc00 mg", "active": true}],
                 "pharmacy": {"id": "pharm-1", "method": "email"}}"""));
        assertRefused(response, invalidCharacter("[\"name\"]"), invalidCharacter("[\"description\"]"),
                invalidCharacter("[\"skus\",1,\"label\"]"));
        assertEquals(0, drugs(id));
    }

    @Test
    void numbersPastANumericColumnAndOverlongTextAreIssues() {
        String id = drugId("bounds");
        Response response = assertTimeoutPreemptively(FAST, () -> putDrug(id, """
                {"name": "%s", "defaultAdCopy": "%s", "classification": "controlled",
                 "skus": [{"id": "%s", "label": "%s", "packageSize": 1e200000, "active": true,
                           "concentration": {"value": 1e-2147483647, "activeUnit": "%s", "baseUnit": "mL"}}],
                 "pharmacy": {"id": "%s", "method": "email"}}""".formatted("n".repeat(201), "a".repeat(10_001),
                "s".repeat(65), "l".repeat(256), "u".repeat(51), "p".repeat(129))));
        assertRefused(response, tooLong("[\"name\"]", 200), tooLong("[\"defaultAdCopy\"]", 10_000),
                tooLong("[\"skus\",0,\"id\"]", 64), tooLong("[\"skus\",0,\"label\"]", 255),
                "{\"code\":\"too_big\",\"maximum\":1000000,\"type\":\"number\",\"inclusive\":true,\"exact\":false,"
                        + "\"path\":[\"skus\",0,\"packageSize\"],\"message\":\"Number must be less than or equal to 1000000\"}",
                "{\"code\":\"not_multiple_of\",\"multipleOf\":0.000001,\"path\":[\"skus\",0,\"concentration\",\"value\"],"
                        + "\"message\":\"Number must be a multiple of 0.000001\"}",
                tooLong("[\"skus\",0,\"concentration\",\"activeUnit\"]", 50), tooLong("[\"pharmacy\",\"id\"]", 128));
        assertEquals(0, drugs(id));

        putDrug(id, drugBody("Bounded", "{\"label\": \"1 vial\", \"packageSize\": 1000000, \"active\": true,"
                + " \"concentration\": {\"value\": 0.000001, \"activeUnit\": \"mg\", \"baseUnit\": \"mL\"}}"))
                .then().statusCode(200);
        assertEquals(1, drugs(id));
    }

    @Test
    void drugAccessForAPartnerIdPastItsIndexEntryOrWithUnstorableTextIsRefused() {
        String longPartner = "p".repeat(3000);
        assertRefused(assertTimeoutPreemptively(FAST, () -> putAccess(longPartner, "{\"drugIds\": [\"x\"]}")),
                tooLong("[\"partnerId\"]", 64));
        assertEquals(0, count("SELECT count(*) FROM partner_drug_access WHERE partner_id = ?", longPartner));

        assertRefused(given().urlEncodingEnabled(false).contentType(ContentType.JSON).body("{\"drugIds\": null}")
                .put("/ops/v1/partners/a%00b/drug-access"), invalidCharacter("[\"partnerId\"]"));
        String partner = partnerId();
        assertRefused(putAccess(partner, "{\"drugIds\": [\"ok\", \"bad\\u0000\"]}"), invalidCharacter("[\"drugIds\",1]"));
        assertEquals(0, count("SELECT count(*) FROM partner_drug_access WHERE partner_id = ?", partner));
        putAccess(partner, "{\"drugIds\": [\"ok\"]}").then().statusCode(200);
    }

    @Test
    void theInternalLookupRefusesUnstorableText() {
        assertRefused(given().urlEncodingEnabled(false).get("/internal/drugs/x%00y?partnerId=p"),
                invalidCharacter("[\"drugId\"]"));
        assertRefused(given().urlEncodingEnabled(false).get("/internal/drugs/x?partnerId=%00"),
                invalidCharacter("[\"partnerId\"]"));
        putDrug(drugId("fine"), drugBody("Fine", sku("1 mg"))).then().statusCode(200);
    }
}
