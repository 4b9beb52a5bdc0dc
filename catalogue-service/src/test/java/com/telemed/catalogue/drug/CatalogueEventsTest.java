package com.telemed.catalogue.drug;

import static com.telemed.catalogue.CatalogueFixtures.createDrug;
import static com.telemed.catalogue.CatalogueFixtures.drugBody;
import static com.telemed.catalogue.CatalogueFixtures.drugId;
import static com.telemed.catalogue.CatalogueFixtures.partnerId;
import static com.telemed.catalogue.CatalogueFixtures.putAccess;
import static com.telemed.catalogue.CatalogueFixtures.putDrug;
import static com.telemed.catalogue.CatalogueFixtures.restrict;
import static com.telemed.catalogue.CatalogueFixtures.sku;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.telemed.testkit.kafka.TopicReader;
import com.telemed.testkit.quarkus.InfrastructureResource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * catalogue.events on the real broker (issue 23): every drug PUT and every access PUT is one event with
 * the exact envelope, the state as the internal lookup shows it, and a version that orders the changes of
 * one drug or one partner as they committed.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
class CatalogueEventsTest {

    /** Decimals as written (2.50 is not 2.5): the event must carry the lookup's numbers exactly. */
    private static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(SerializationFeature.WRITE_BIGDECIMAL_AS_PLAIN);
    private static final Duration WAIT = Duration.ofSeconds(30);

    private static List<ConsumerRecord<String, String>> events(String key, int expected) {
        return TopicReader.readKey(TopicReader.configuredBootstrapServers(), CatalogueEvents.TOPIC, key, expected, WAIT);
    }

    /** {@code GET /internal/drugs/:id}'s drug and pharmacy, as the event must carry them. */
    private static JsonNode lookup(String drugId) throws Exception {
        return JSON.readTree(given().queryParam("partnerId", partnerId()).get("/internal/drugs/{id}", drugId)
                .then().statusCode(200).extract().asString());
    }

    @Test
    void aDrugPutPublishesTheDrugAsTheLookupShowsItKeyedByItsId() throws Exception {
        String id = drugId("events");
        Instant before = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        createDrug(id, drugBody("Evented", sku("1 mg"),
                "{\"label\": \"2.5 mg/mL\", \"packageSize\": 30.0, \"active\": false,"
                        + " \"concentration\": {\"value\": 2.50, \"activeUnit\": \"mg\", \"baseUnit\": \"mL\"}}"));
        Instant after = Instant.now();

        ConsumerRecord<String, String> record = events(id, 1).get(0);
        assertEquals(id, record.key());
        JsonNode event = JSON.readTree(record.value());
        String eventId = event.get("id").asText();
        assertEquals(eventId, UUID.fromString(eventId).toString());
        String occurredAt = event.get("occurredAt").asText();
        assertTrue(occurredAt.matches("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z"), occurredAt);
        Instant at = Instant.parse(occurredAt);
        assertTrue(!at.isBefore(before) && !at.isAfter(after), "the change's time: " + occurredAt);
        long version = event.at("/data/version").asLong();
        assertTrue(version > 0, "a version from catalogue_versions");
        JsonNode answer = lookup(id);
        assertEquals(answer.get("drug"), event.at("/data/drug"), "the drug as the internal lookup answers it");
        // Byte for byte: key order, no partner, the drug subject alone, webhook null.
        assertEquals("{\"id\":\"" + eventId + "\",\"type\":\"catalogue.drug_changed\",\"partnerId\":null,"
                + "\"occurredAt\":\"" + occurredAt + "\",\"subject\":{\"drugId\":\"" + id + "\"},"
                + "\"data\":{\"drugId\":\"" + id + "\",\"version\":" + version + ",\"drug\":" + JSON.writeValueAsString(answer.get("drug"))
                + ",\"pharmacy\":{\"id\":\"pharm-1\",\"method\":\"email\"}},\"webhook\":null}", record.value());
    }

    @Test
    void everyChangeOfOneDrugHasAHigherVersionThanTheOneBefore() throws Exception {
        String id = drugId("versions");
        createDrug(id, drugBody("First", sku("1 mg")));
        createDrug(id, drugBody("Second", sku("1 mg")));
        createDrug(id, drugBody("Third", sku("1 mg")));

        List<JsonNode> events = TopicReader.jsons(events(id, 3));
        assertEquals(List.of("First", "Second", "Third"), events.stream().map(event -> event.at("/data/drug/name").asText()).toList());
        long first = events.get(0).at("/data/version").asLong();
        long second = events.get(1).at("/data/version").asLong();
        long third = events.get(2).at("/data/version").asLong();
        assertTrue(first < second && second < third, first + " < " + second + " < " + third);
    }

    @Test
    void concurrentPutsOfOneDrugEndWithTheStoredStateAtTheHighestVersion() throws Exception {
        String id = drugId("race");
        int writers = 8;
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            List<Callable<Integer>> puts = new ArrayList<>();
            for (int i = 0; i < writers; i++) {
                String name = "Writer " + i;
                puts.add(() -> putDrug(id, drugBody(name, sku("1 mg"))).statusCode());
            }
            for (Future<Integer> status : pool.invokeAll(puts)) {
                assertEquals(200, status.get());
            }
        } finally {
            pool.shutdownNow();
        }

        List<JsonNode> events = TopicReader.jsons(events(id, writers));
        assertEquals(writers, new HashSet<>(events.stream().map(event -> event.at("/data/version").asLong()).toList()).size(),
                "one version per change");
        // Published in commit order: the versions rise along the key's records, and the last is what is stored.
        List<Long> versions = events.stream().map(event -> event.at("/data/version").asLong()).toList();
        assertEquals(versions.stream().sorted().toList(), versions);
        JsonNode newest = events.stream().max(Comparator.comparingLong(event -> event.at("/data/version").asLong())).orElseThrow();
        assertEquals(lookup(id).get("drug"), newest.at("/data/drug"));
    }

    @Test
    void anAccessPutPublishesThePartnersListOrNullWhenOpenedAgain() throws Exception {
        String partner = partnerId();
        restrict(partner, "drug-b", "drug-a", "drug-b");
        restrict(partner);
        putAccess(partner, "{\"drugIds\": null}").then().statusCode(200);

        List<ConsumerRecord<String, String>> records = events(partner, 3);
        List<JsonNode> events = TopicReader.jsons(records);
        for (JsonNode event : events) {
            assertEquals("catalogue.access_changed", event.get("type").asText());
            assertEquals(partner, event.get("partnerId").asText());
            assertEquals("{}", event.get("subject").toString());
            assertTrue(event.get("webhook").isNull());
        }
        long first = events.get(0).at("/data/version").asLong();
        long second = events.get(1).at("/data/version").asLong();
        long third = events.get(2).at("/data/version").asLong();
        assertTrue(first < second && second < third, first + " < " + second + " < " + third);
        // As stored: duplicates dropped, order kept; an empty restriction; null for the full catalogue.
        assertEquals("{\"partnerId\":\"" + partner + "\",\"version\":" + first + ",\"drugIds\":[\"drug-b\",\"drug-a\"]}",
                events.get(0).get("data").toString());
        assertEquals("{\"partnerId\":\"" + partner + "\",\"version\":" + second + ",\"drugIds\":[]}", events.get(1).get("data").toString());
        assertEquals("{\"partnerId\":\"" + partner + "\",\"version\":" + third + ",\"drugIds\":null}", events.get(2).get("data").toString());
    }
}
