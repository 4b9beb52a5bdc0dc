package com.telemed.catalogue.copy;

import static com.telemed.catalogue.CatalogueFixtures.createDrug;
import static com.telemed.catalogue.CatalogueFixtures.drugBody;
import static com.telemed.catalogue.CatalogueFixtures.drugId;
import static com.telemed.catalogue.CatalogueFixtures.partnerId;
import static com.telemed.catalogue.CatalogueFixtures.putAccess;
import static com.telemed.catalogue.CatalogueFixtures.restrict;
import static com.telemed.catalogue.CatalogueFixtures.sku;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.telemed.catalogue.drug.CatalogueEvents;
import com.telemed.testkit.kafka.TopicReader;
import com.telemed.testkit.quarkus.InfrastructureResource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /internal/catalogue/snapshot} (issue 23): every drug and every partner whose access was set,
 * each exactly as its newest catalogue.events event carries it, version included.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
class CatalogueSnapshotTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode snapshot() throws Exception {
        return JSON.readTree(given().get("/internal/catalogue/snapshot").then().statusCode(200)
                .contentType("application/json").extract().asString());
    }

    private static JsonNode entry(JsonNode list, String field, String id) {
        return StreamSupport.stream(list.spliterator(), false).filter(entry -> id.equals(entry.get(field).asText()))
                .findFirst().orElseThrow(() -> new AssertionError(id + " not in the snapshot"));
    }

    private static JsonNode newestEvent(String key, int events) {
        List<JsonNode> records = TopicReader.jsons(TopicReader.readKey(TopicReader.configuredBootstrapServers(),
                CatalogueEvents.TOPIC, key, events, Duration.ofSeconds(30)));
        return records.get(records.size() - 1);
    }

    @Test
    void everyDrugIsTheDataOfItsNewestEvent() throws Exception {
        String id = drugId("snapshot");
        createDrug(id, drugBody("Before", sku("1 mg")));
        createDrug(id, drugBody("After", sku("1 mg"), sku("2 mg")));

        JsonNode snapshot = snapshot();
        List<String> fields = new ArrayList<>();
        snapshot.fieldNames().forEachRemaining(fields::add);
        assertEquals(List.of("drugs", "access"), fields);
        assertEquals(newestEvent(id, 2).get("data"), entry(snapshot.get("drugs"), "drugId", id));
    }

    @Test
    void everyPartnerWhoseAccessWasSetIsThereOpenedOnesWithNull() throws Exception {
        String restricted = partnerId();
        String empty = partnerId();
        String opened = partnerId();
        String untouched = partnerId();
        restrict(restricted, "drug-z", "drug-y");
        restrict(empty);
        restrict(opened, "drug-x");
        putAccess(opened, "{\"drugIds\": null}").then().statusCode(200);

        JsonNode access = snapshot().get("access");
        assertEquals(newestEvent(restricted, 1).get("data"), entry(access, "partnerId", restricted));
        assertEquals(newestEvent(empty, 1).get("data"), entry(access, "partnerId", empty));
        assertEquals(newestEvent(opened, 2).get("data"), entry(access, "partnerId", opened));
        assertEquals("[\"drug-z\",\"drug-y\"]", entry(access, "partnerId", restricted).get("drugIds").toString());
        assertEquals("[]", entry(access, "partnerId", empty).get("drugIds").toString());
        assertEquals("null", entry(access, "partnerId", opened).get("drugIds").toString());
        assertFalse(StreamSupport.stream(access.spliterator(), false).anyMatch(entry -> untouched.equals(entry.get("partnerId").asText())),
                "a partner never set is not listed: it sees the full catalogue");
    }
}
