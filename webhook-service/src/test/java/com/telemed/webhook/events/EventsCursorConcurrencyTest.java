package com.telemed.webhook.events;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.testkit.quarkus.InfrastructureResource;
import com.telemed.testkit.quarkus.ServiceDatabase;
import com.telemed.webhook.WebhookConfig;
import com.telemed.webhook.delivery.DeliveryMetrics;
import com.telemed.webhook.delivery.Dispatcher;
import com.telemed.webhook.intake.Intake;
import com.telemed.webhook.settings.SecretCipher;
import com.telemed.webhook.support.Events;
import com.telemed.webhook.support.Partners;
import io.agroal.api.AgroalDataSource;
import io.agroal.api.configuration.supplier.AgroalDataSourceConfigurationSupplier;
import io.agroal.api.security.NamePrincipal;
import io.agroal.api.security.SimplePassword;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.telemed.testkit.trust.TestServiceProofs;
import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

/**
 * The cursor's promise (partner-extensions.md, Events): a reader that follows {@code nextCursor}
 * sees every event of the partner exactly once and in order, whatever the writers do meanwhile.
 *
 * <p>Two replicas of intake: this service's own {@link Intake} and a second one built on a connection
 * pool of its own (another replica's, against the same database). Four writers, two on each, store
 * 5,000 events of one partner in batches of 1 to 20 (mixed with events of three other partners, so
 * batches lock several counter rows), each batch in its own transaction, while a reader pages through
 * the HTTP endpoint with {@code limit=7} from the start, and a second reader starts mid-way from a
 * cursor the first was handed. Without a commit-ordered sequence (a plain {@code bigserial}) a page
 * can show a later transaction's number while an earlier one is uncommitted, and the reader skips it.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
class EventsCursorConcurrencyTest {

    private static final int EVENTS = 5_000;
    private static final int LIMIT = 7;

    @Inject
    Intake intake;
    @Inject
    SecretCipher cipher;
    @Inject
    WebhookConfig config;
    @Inject
    Dispatcher dispatcher;
    @Inject
    DeliveryMetrics metrics;

    private static RequestSpecification as(String partnerId) {
        return given().header("X-Partner-Id", partnerId);
    }

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * One page of {@code GET /v1/events}, called as the gateway calls the service (the partner, the service proof),
     * with the JDK's client: several times as many pages a second as through RestAssured, so the reader looks
     * often, also in the few milliseconds between two writers' commits.
     */
    private static JsonNode page(String partner, String after, int limit) throws Exception {
        String target = "/v1/events?limit=" + limit + (after == null ? "" : "&after=" + after);
        URI uri = URI.create(RestAssured.baseURI + ":" + RestAssured.port + target);
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).header("X-Partner-Id", partner).GET();
        TestServiceProofs.headers(TestServiceProofs.DEVELOPMENT_KEY, "GET", TestServiceProofs.target(uri), partner)
                .forEach(request::header);
        HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        return JSON.readTree(response.body());
    }

    /** What a reader saw: the ids in the order it was handed them, until a page says no more once {@code writing} is over. */
    private static List<String> read(String partner, String from, int limit, Supplier<Boolean> writing) {
        List<String> seen = new ArrayList<>();
        String cursor = from;
        try {
            while (true) {
                boolean stillWriting = writing.get();
                JsonNode page = page(partner, cursor, limit);
                List<String> ids = new ArrayList<>();
                page.get("events").forEach(event -> ids.add(event.get("id").asText()));
                seen.addAll(ids);
                String next = page.get("nextCursor").isNull() ? null : page.get("nextCursor").asText();
                assertEquals(ids.isEmpty() ? cursor : ids.get(ids.size() - 1), next);
                cursor = next;
                if (!page.get("hasMore").asBoolean() && !stillWriting) {
                    return seen;
                }
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void fourWritersOnTwoReplicasAndReadersFromAnyCursorSeeEveryEventOnceInOrder() throws Exception {
        String partner = Partners.newPartner();
        List<String> others = List.of(Partners.newPartner(), Partners.newPartner(), Partners.newPartner());
        var settings = ConfigProvider.getConfig();
        AgroalDataSourceConfigurationSupplier replicaConfig = new AgroalDataSourceConfigurationSupplier();
        replicaConfig.connectionPoolConfiguration().maxSize(4).connectionFactoryConfiguration()
                .jdbcUrl(settings.getValue("quarkus.datasource.jdbc.url", String.class))
                .principal(new NamePrincipal(settings.getValue("quarkus.datasource.username", String.class)))
                .credential(new SimplePassword(settings.getValue("quarkus.datasource.password", String.class)));
        try (AgroalDataSource replicaPool = AgroalDataSource.from(replicaConfig)) {
            Intake secondReplica = new Intake(replicaPool, cipher, config, dispatcher, metrics);
            List<Intake> writers = List.of(intake, intake, secondReplica, secondReplica);

            AtomicInteger left = new AtomicInteger(EVENTS);
            AtomicBoolean writing = new AtomicBoolean(true);
            AtomicInteger batches = new AtomicInteger();
            ExecutorService threads = Executors.newFixedThreadPool(6);
            try {
                List<CompletableFuture<Void>> writes = new ArrayList<>();
                for (int w = 0; w < writers.size(); w++) {
                    Intake writer = writers.get(w);
                    Random random = new Random(42 + w);
                    writes.add(CompletableFuture.runAsync(() -> {
                        while (true) {
                            int want = 1 + random.nextInt(20);
                            int take = left.getAndUpdate(n -> Math.max(0, n - want));
                            int count = Math.min(want, take);
                            if (count == 0) {
                                return;
                            }
                            List<String> batch = new ArrayList<>();
                            for (int i = 0; i < count; i++) {
                                batch.add(Events.envelope(Events.newId(), partner, "item.approved", "{\"event\":\"item.approved\",\"n\":" + i + "}"));
                                if (random.nextInt(4) == 0) {
                                    batch.add(Events.envelope(Events.newId(), others.get(random.nextInt(others.size())), "message.new",
                                            "{\"event\":\"message.new\"}"));
                                }
                            }
                            try {
                                writer.accept(batch);
                            } catch (Exception e) {
                                throw new IllegalStateException(e);
                            }
                            batches.incrementAndGet();
                        }
                    }, threads));
                }
                CompletableFuture<Void> allWritten = CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new))
                        .whenComplete((done, failed) -> writing.set(false));

                CompletableFuture<List<String>> first = CompletableFuture.supplyAsync(() -> read(partner, null, LIMIT, writing::get), threads);
                // The second reader starts mid-write, from a cursor the platform handed out: the 700th event's id.
                await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(50))
                        .until(() -> ServiceDatabase.count("SELECT count(*) FROM events WHERE partner_id = ?", partner) >= 700);
                String cursor = null;
                for (int page = 0; page < 7; page++) {
                    RequestSpecification request = as(partner).queryParam("limit", 100);
                    if (cursor != null) {
                        request.queryParam("after", cursor);
                    }
                    cursor = request.when().get("/v1/events").then().statusCode(200).extract().path("nextCursor");
                }
                String from = cursor;
                CompletableFuture<List<String>> secondReader = CompletableFuture.supplyAsync(() -> read(partner, from, LIMIT, writing::get), threads);

                allWritten.get(5, TimeUnit.MINUTES);
                List<String> second = secondReader.get(5, TimeUnit.MINUTES);
                List<String> seen = first.get(5, TimeUnit.MINUTES);

                List<String> stored = ServiceDatabase.texts("SELECT id::text FROM events WHERE partner_id = ? ORDER BY seq", partner);
                assertEquals(EVENTS, stored.size(), "every event stored once");
                assertEquals(EVENTS, new HashSet<>(seen).size(), "the reader saw every event");
                assertEquals(stored, seen, "exactly once and in sequence order");
                assertTrue(writing.get() == false && batches.get() >= EVENTS / 20, "many concurrent batches: " + batches.get());
                assertEquals(700, seen.indexOf(from) + 1);
                assertEquals(seen.subList(700, seen.size()), second,
                        "the second reader, started mid-write from a handed-out cursor, saw the same suffix");
                assertEquals(EVENTS, ServiceDatabase.count("SELECT last_seq FROM partner_event_counters WHERE partner_id = ?", partner),
                        "no number lost: each event of the partner took the next");

                // Any cursor afterwards: the same suffix.
                Random random = new Random(7);
                for (int i = 0; i < 5; i++) {
                    int at = random.nextInt(EVENTS);
                    assertEquals(seen.subList(at + 1, EVENTS), read(partner, seen.get(at), 100, () -> false), "from event " + at);
                }
            } finally {
                threads.shutdownNow();
            }
        }
    }

    /**
     * The race the cursor must win, made certain: one replica's transaction has recorded the partner's
     * next event (the recorder intake runs, in a transaction held open here) when another replica's
     * intake records the one after it. That later writer waits for the earlier commit, so a reader
     * between the two sees neither, then both in order; with numbers handed out at insert (a
     * sequence), the reader saw the later one alone, moved its cursor past it, and never saw the other.
     */
    @Test
    void aLaterWriterWaitsForTheEarlierCommitSoNoReaderSkipsAnEvent() throws Exception {
        String partner = Partners.newPartner();
        intake.accept(List.of(Events.envelope(Events.newId(), partner, "item.approved", "{\"event\":\"item.approved\",\"n\":0}")));
        String cursor = as(partner).when().get("/v1/events").then().statusCode(200).extract().path("nextCursor");
        List<String> seen = new ArrayList<>();
        UUID held = UUID.randomUUID();
        CompletableFuture<Void> later;
        boolean laterWaited;
        try (Connection connection = ServiceDatabase.connect()) {
            connection.setAutoCommit(false);
            EventRecorder.record(connection, List.of(new EventRecorder.NewEvent(held, partner, Events.newId(), "item.approved",
                    "{\"event\":\"item.approved\",\"n\":1}")), Instant.now());
            later = CompletableFuture.runAsync(() -> {
                try {
                    intake.accept(List.of(Events.envelope(Events.newId(), partner, "item.approved", "{\"event\":\"item.approved\",\"n\":2}")));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            // Given its chance to commit: a later writer that does not wait for this one has committed by now.
            try {
                later.get(500, TimeUnit.MILLISECONDS);
                laterWaited = false;
            } catch (TimeoutException waiting) {
                laterWaited = true;
            }
            JsonPath meanwhile = as(partner).queryParam("after", cursor).when().get("/v1/events").then().statusCode(200).extract().jsonPath();
            seen.addAll(meanwhile.getList("events.id"));
            cursor = meanwhile.getString("nextCursor");
            connection.commit();
        }
        later.get(30, TimeUnit.SECONDS);
        JsonPath after = as(partner).queryParam("after", cursor).when().get("/v1/events").then().statusCode(200).extract().jsonPath();
        seen.addAll(after.getList("events.id"));
        assertEquals(3, ServiceDatabase.count("SELECT count(*) FROM events WHERE partner_id = ?", partner));
        assertEquals(2, seen.size(), "the reader saw both events, each once: " + seen);
        assertEquals(held.toString(), seen.get(0), "the held event first");
        assertEquals(List.of(1, 2), after.getList("events.data.n"));
        assertTrue(laterWaited, "the later writer waited for the held transaction's commit");
    }
}
