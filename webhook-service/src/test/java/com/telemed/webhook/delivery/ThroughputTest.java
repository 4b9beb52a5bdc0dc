package com.telemed.webhook.delivery;

import static org.junit.jupiter.api.Assertions.assertTrue;
import org.jboss.logging.Logger;

import com.telemed.testkit.quarkus.InfrastructureResource;
import com.telemed.webhook.support.Db;
import com.telemed.webhook.support.Events;
import com.telemed.webhook.support.Partners;
import com.telemed.webhook.support.Receiver;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.util.concurrent.atomic.AtomicInteger;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Opt-in measurement, not a contract test: {@code ../mvnw test -Dtest=ThroughputTest
 * -Dbench.throughput.events=20000 [-Dbench.throughput.partners=20]}. Publishes the events onto
 * care.events as fast as Kafka takes them, then waits until every one is delivered (2xx recorded)
 * to one loopback receiver, and prints events per second, end to end (consume, store, sign, POST,
 * record). Everything (Kafka, PostgreSQL, receiver, producer, service) shares this machine.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@EnabledIfSystemProperty(named = "bench.throughput.events", matches = "[0-9]+")
class ThroughputTest {

    private static final Logger LOG = Logger.getLogger(ThroughputTest.class);

    @Test
    void measure() throws Exception {
        int events = Integer.getInteger("bench.throughput.events");
        int partnerCount = Integer.getInteger("bench.throughput.partners", 20);
        // A Vert.x receiver of its own (the JDK HttpServer of the other tests was the bottleneck).
        Vertx vertx = Vertx.vertx();
        AtomicInteger received = new AtomicInteger();
        HttpServer server = vertx.createHttpServer()
                .requestHandler(request -> request.body().onComplete(body -> {
                    received.incrementAndGet();
                    request.response().setStatusCode(200).end();
                }))
                .listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get();
        String url = "http://127.0.0.1:" + server.actualPort() + "/hooks";
        try {
            List<String> partners = new ArrayList<>();
            for (int i = 0; i < partnerCount; i++) {
                String partner = Partners.newPartner();
                Partners.setUrl(partner, url);
                partners.add(partner);
            }
            Properties properties = new Properties();
            properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, InfrastructureResource.running().kafka().bootstrapServers());
            properties.put(ProducerConfig.ACKS_CONFIG, "all");
            properties.put(ProducerConfig.LINGER_MS_CONFIG, "5");
            long started = System.nanoTime();
            try (KafkaProducer<String, String> producer =
                         new KafkaProducer<>(properties, new StringSerializer(), new StringSerializer())) {
                for (int i = 0; i < events; i++) {
                    String partner = partners.get(i % partnerCount);
                    String request = "r-" + i;
                    producer.send(new ProducerRecord<>("care.events", request,
                            Events.envelope(Events.newId(), partner, "item.approved", Events.itemApproved(request))));
                }
                producer.flush();
            }
            long published = System.nanoTime();
            String in = String.join(",", partners.stream().map(p -> "'" + p + "'").toList());
            boolean done = Receiver.Waits.until(600_000, () -> Db.count(
                    "SELECT count(*) FROM deliveries WHERE status = 'delivered' AND partner_id IN (" + in + ")") >= events);
            long finished = System.nanoTime();
            double seconds = (finished - started) / 1e9;
            LOG.infof("MEASURED throughput: %d events, %d partners: published in %.1f s, all delivered after %.1f s"
                            + " = %.0f events/s end to end; receiver got %d POSTs",
                    events, partnerCount, (published - started) / 1e9, seconds, events / seconds, received.get());
            LOG.info("MEASURED phases (first insert, last insert, last delivered): " + Db.rows(
                    "SELECT min(created_at) AS first_insert, max(created_at) AS last_insert, max(updated_at) AS last_delivered"
                            + " FROM deliveries WHERE partner_id IN (" + in + ")"));
            LOG.info("MEASURED attempts by status: " + Db.rows("SELECT a.http_status, a.error, count(*), avg(a.duration_ms)"
                    + " FROM delivery_attempts a JOIN deliveries d ON d.id = a.delivery_id WHERE d.partner_id IN (" + in + ")"
                    + " GROUP BY 1, 2"));
            assertTrue(done, "all delivered");
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get();
        }
    }
}
