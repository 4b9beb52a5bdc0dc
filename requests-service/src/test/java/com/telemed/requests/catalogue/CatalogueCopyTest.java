package com.telemed.requests.catalogue;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.telemed.requests.FakeNeighbours;
import com.telemed.requests.FakeNeighboursResource;
import com.telemed.testkit.kafka.TopicReader;
import com.telemed.testkit.kafka.TopicWriter;
import com.telemed.testkit.quarkus.InfrastructureResource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The catalogue copy (issue 23): the higher version wins whatever the order; catalogue.events on the real
 * broker reach it; the snapshot syncs it; and once synced, a create's lookup reads it without asking
 * catalogue-service, except for a drug it does not have.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(FakeNeighboursResource.class)
class CatalogueCopyTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    CatalogueCopy copy;

    @Inject
    CatalogueClient client;

    @Inject
    CatalogueCopySync sync;

    @Inject
    FakeNeighbours neighbours;

    @BeforeEach
    void reset() {
        neighbours.reset();
    }

    private static String id(String prefix) {
        return prefix + "-" + UUID.randomUUID();
    }

    private static JsonNode record(String drugId, String name) throws Exception {
        return JSON.readTree("{\"id\":\"" + drugId + "\",\"name\":\"" + name + "\",\"description\":null,\"defaultAdCopy\":null,"
                + "\"dosages\":[\"1 mg\"],\"skus\":[{\"id\":\"sku_" + drugId + "\",\"label\":\"1 mg\",\"packageSize\":null,"
                + "\"concentration\":null,\"active\":true}],\"classification\":\"non-controlled\"}");
    }

    private static CatalogueChanges.Drug drug(String drugId, long version, String name, String method) throws Exception {
        return new CatalogueChanges.Drug(drugId, version, record(drugId, name), new DrugLookup.Pharmacy("pharm-" + version, method));
    }

    private String name(String partnerId, String drugId) {
        return copy.lookup(partnerId, drugId).orElseThrow().name();
    }

    private boolean orderable(String partnerId, String drugId) {
        return copy.lookup(partnerId, drugId).orElseThrow().orderable();
    }

    @Test
    void theHigherVersionWinsWhateverTheOrderAndHowOften() throws Exception {
        String drugId = id("versions");
        String partner = UUID.randomUUID().toString();
        copy.apply(drug(drugId, 7, "Seven", "email"));
        copy.apply(drug(drugId, 5, "Five", "integration_a"));
        copy.apply(drug(drugId, 7, "Seven again", "integration_a"));
        DrugLookup seven = copy.lookup(partner, drugId).orElseThrow();
        assertEquals("Seven", seven.name());
        assertEquals(new DrugLookup.Pharmacy("pharm-7", "email"), seven.pharmacy());
        assertEquals(record(drugId, "Seven"), seven.drug());
        copy.apply(drug(drugId, 9, "Nine", "none"));
        assertEquals("Nine", name(partner, drugId));
        assertEquals(Optional.empty(), copy.lookup(partner, id("unknown")));
    }

    @Test
    void aPartnerSeesTheFullCatalogueUntilRestrictedAndAgainOnceOpened() throws Exception {
        String allowed = id("allowed");
        String other = id("other");
        String partner = UUID.randomUUID().toString();
        copy.apply(drug(allowed, 1, "Allowed", "email"));
        copy.apply(drug(other, 1, "Other", "email"));
        assertTrue(orderable(partner, other), "no access row: the full catalogue");

        copy.apply(new CatalogueChanges.Access(partner, 3, List.of(allowed, "quote\"and\\backslash")));
        assertTrue(orderable(partner, allowed));
        assertFalse(orderable(partner, other));
        assertTrue(orderable(UUID.randomUUID().toString(), other), "another partner keeps the full catalogue");

        copy.apply(new CatalogueChanges.Access(partner, 2, null));
        assertFalse(orderable(partner, other), "an older opening changes nothing");
        copy.apply(new CatalogueChanges.Access(partner, 4, null));
        assertTrue(orderable(partner, other));
        copy.apply(new CatalogueChanges.Access(partner, 5, List.of()));
        assertFalse(orderable(partner, allowed), "restricted to nothing");
    }

    @Test
    void catalogueEventsOnTheBrokerReachTheCopyPastARecordThatIsNoEvent() throws Exception {
        String drugId = id("evented");
        String partner = UUID.randomUUID().toString();
        String drugEvent = "{\"id\":\"" + UUID.randomUUID() + "\",\"type\":\"catalogue.drug_changed\",\"partnerId\":null,"
                + "\"occurredAt\":\"2026-11-27T10:00:00.000Z\",\"subject\":{\"drugId\":\"" + drugId + "\"},"
                + "\"data\":{\"drugId\":\"" + drugId + "\",\"version\":12,\"drug\":" + record(drugId, "Evented")
                + ",\"pharmacy\":{\"id\":\"pharm-e\",\"method\":\"integration_b\"}},\"webhook\":null}";
        String accessEvent = "{\"id\":\"" + UUID.randomUUID() + "\",\"type\":\"catalogue.access_changed\",\"partnerId\":\"" + partner
                + "\",\"occurredAt\":\"2026-11-27T10:00:01.000Z\",\"subject\":{},"
                + "\"data\":{\"partnerId\":\"" + partner + "\",\"version\":13,\"drugIds\":[\"something-else\"]},\"webhook\":null}";
        String bootstrap = TopicReader.configuredBootstrapServers();
        TopicWriter.publish(bootstrap, CatalogueChanges.TOPIC, drugId, "not an envelope",
                "{\"type\":\"catalogue.drug_changed\",\"data\":{\"drugId\":\"" + drugId + "\"}}", drugEvent);
        TopicWriter.publish(bootstrap, CatalogueChanges.TOPIC, partner, accessEvent);

        await().atMost(Duration.ofSeconds(30)).until(() -> copy.lookup(partner, drugId).isPresent()
                && !copy.lookup(partner, drugId).get().orderable());
        DrugLookup copied = copy.lookup(UUID.randomUUID().toString(), drugId).orElseThrow();
        assertEquals(new DrugLookup.Pharmacy("pharm-e", "integration_b"), copied.pharmacy());
        assertTrue(copied.orderable());
        assertEquals(record(drugId, "Evented"), copied.drug());
    }

    @Test
    void theSnapshotSyncsTheCopyAndLookupsThenReadItAskingOnlyForDrugsItLacks() throws Exception {
        String copied = id("snapshot");
        String restrictedPartner = UUID.randomUUID().toString();
        neighbours.catalogueSnapshot(new JsonObject()
                .put("drugs", new JsonArray().add(new JsonObject().put("drugId", copied).put("version", 40)
                        .put("drug", new JsonObject(record(copied, "From the snapshot").toString()))
                        .put("pharmacy", new JsonObject().put("id", "pharm-s").put("method", "email"))))
                .put("access", new JsonArray().add(new JsonObject().put("partnerId", restrictedPartner).put("version", 41)
                        .put("drugIds", new JsonArray()))));

        assertTrue(sync.syncNow());
        assertTrue(sync.done());
        assertTrue(copy.synced());
        assertTrue(copy.syncedBefore(), "recorded for the next start");
        String partner = UUID.randomUUID().toString();
        DrugLookup lookup = client.lookup(partner, copied).orElseThrow();
        assertEquals("From the snapshot", lookup.name());
        assertTrue(lookup.orderable());
        assertFalse(client.lookup(restrictedPartner, copied).orElseThrow().orderable());
        assertEquals(List.of(), neighbours.calls().stream().filter(FakeNeighbours::toCatalogue).toList(),
                "answered from the copy");

        // A drug the copy lacks (created an instant ago at catalogue-service): asked for, once.
        String fresh = id("fresh");
        neighbours.drug(fresh, "Fresh", List.of("5 mg"), partner);
        assertEquals("Fresh", client.lookup(partner, fresh).orElseThrow().name());
        assertEquals(1, neighbours.calls().stream().filter(FakeNeighbours::toCatalogue).count());
        assertEquals(Optional.empty(), client.lookup(partner, id("nowhere")));
    }
}
