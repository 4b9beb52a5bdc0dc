package com.telemed.catalogue.access;

import static com.telemed.catalogue.CatalogueFixtures.createDrug;
import static com.telemed.catalogue.CatalogueFixtures.drugBody;
import static com.telemed.catalogue.CatalogueFixtures.drugId;
import static com.telemed.catalogue.CatalogueFixtures.partnerDrugs;
import static com.telemed.catalogue.CatalogueFixtures.partnerId;
import static com.telemed.catalogue.CatalogueFixtures.putAccess;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.telemed.testkit.quarkus.InfrastructureResource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
class DrugAccessResourceTest {

    private static Map<String, Object> issue(Object... keysAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }

    @Test
    void aListRestrictsAndNullOpensTheFullCatalogue() {
        String a = drugId("acc-a");
        String b = drugId("acc-b");
        createDrug(a, drugBody("A"));
        createDrug(b, drugBody("B"));
        String partner = partnerId();

        putAccess(partner, "{\"drugIds\": [\"%s\", \"unknown-drug\", \"%s\"]}".formatted(b, b))
                .then().statusCode(200).contentType(ContentType.JSON)
                .body("drugIds", equalTo(List.of(b, "unknown-drug")));
        partnerDrugs(partner).then().statusCode(200).body("drugs.id", equalTo(List.of(b)));

        // Replaced, not merged.
        putAccess(partner, "{\"drugIds\": [\"%s\"]}".formatted(a))
                .then().statusCode(200).body("drugIds", equalTo(List.of(a)));
        partnerDrugs(partner).then().statusCode(200).body("drugs.id", equalTo(List.of(a)));

        putAccess(partner, "{\"drugIds\": null}")
                .then().statusCode(200).body("$", hasKey("drugIds")).body("drugIds", nullValue());
        partnerDrugs(partner).then().statusCode(200).body("drugs.id", hasItems(a, b));

        // Opening twice is fine, and so is restricting to nothing.
        putAccess(partner, "{\"drugIds\": null}").then().statusCode(200).body("drugIds", nullValue());
        putAccess(partner, "{\"drugIds\": []}").then().statusCode(200).body("drugIds", equalTo(List.of()));
        partnerDrugs(partner).then().statusCode(200).body("drugs", equalTo(List.of()));
    }

    @Test
    void onePartnersSettingNeverTouchesAnothers() {
        String a = drugId("iso-a");
        String b = drugId("iso-b");
        createDrug(a, drugBody("A"));
        createDrug(b, drugBody("B"));
        String first = partnerId();
        String second = partnerId();

        putAccess(first, "{\"drugIds\": [\"%s\"]}".formatted(a)).then().statusCode(200);
        putAccess(second, "{\"drugIds\": [\"%s\"]}".formatted(b)).then().statusCode(200);
        partnerDrugs(first).then().body("drugs.id", equalTo(List.of(a)));
        partnerDrugs(second).then().body("drugs.id", equalTo(List.of(b)));

        putAccess(second, "{\"drugIds\": null}").then().statusCode(200);
        partnerDrugs(first).then().body("drugs.id", equalTo(List.of(a)));
        partnerDrugs(second).then().body("drugs.id", hasItems(a, b));
    }

    @Test
    void validatesTheBody() {
        String partner = partnerId();
        List<Map<String, Object>> missing = putAccess(partner, "{}")
                .then().statusCode(400).extract().path("error");
        assertEquals(List.of(issue("code", "invalid_type", "expected", "array", "received", "undefined",
                "path", List.of("drugIds"), "message", "Required")), missing);

        List<Map<String, Object>> wrong = putAccess(partner, "{\"drugIds\": [\"ok\", 5, \"not ok\", \"\"]}")
                .then().statusCode(400).extract().path("error");
        assertEquals(List.of(
                issue("code", "invalid_type", "expected", "string", "received", "number",
                        "path", List.of("drugIds", 1), "message", "Expected string, received number"),
                issue("code", "invalid_string", "validation", "regex", "path", List.of("drugIds", 2),
                        "message", "Drug id may contain only letters, digits, '-' and '_'"),
                issue("code", "too_small", "minimum", 1, "type", "string", "inclusive", true, "exact", false,
                        "path", List.of("drugIds", 3), "message", "String must contain at least 1 character(s)"),
                issue("code", "invalid_string", "validation", "regex", "path", List.of("drugIds", 3),
                        "message", "Drug id may contain only letters, digits, '-' and '_'")), wrong);

        putAccess(partner, "{\"drugIds\": \"all\"}").then().statusCode(400)
                .body("error[0].path", equalTo(List.of("drugIds")))
                .body("error[0].message", equalTo("Expected array, received string"));
        // Nothing was stored by the rejected calls.
        partnerDrugs(partner).then().statusCode(200);
    }

    @Test
    void concurrentFirstSettingsForOnePartnerAllSucceed() throws Exception {
        String drug = drugId("race-acc");
        createDrug(drug, drugBody("Race"));
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            for (int round = 0; round < 5; round++) {
                String partner = partnerId();
                CyclicBarrier start = new CyclicBarrier(2);
                List<Future<Integer>> calls = new ArrayList<>();
                for (int thread = 0; thread < 2; thread++) {
                    calls.add(pool.submit(() -> {
                        start.await(10, TimeUnit.SECONDS);
                        return putAccess(partner, "{\"drugIds\": [\"%s\"]}".formatted(drug)).statusCode();
                    }));
                }
                for (Future<Integer> call : calls) {
                    assertEquals(200, call.get(30, TimeUnit.SECONDS));
                }
                partnerDrugs(partner).then().statusCode(200).body("drugs.id", equalTo(List.of(drug)));
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
