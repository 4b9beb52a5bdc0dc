package com.telemed.e2e;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.telemed.testkit.e2e.RunningPlatform;
import com.telemed.testkit.infra.PostgresServer;
import com.telemed.testkit.kafka.CareEvents;
import com.telemed.testkit.kafka.ConsumerGroups;
import com.telemed.testkit.kafka.TopicWriter;
import com.telemed.testkit.platform.Platform;
import com.telemed.testkit.platform.PlatformService;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * webhook-service with two replicas (architecture.md, "Several replicas"): each event reaches the
 * partner exactly once while both consume {@code care.events} (group {@code webhook-service}; the
 * test waits until each replica holds partitions) and deliver, and when one of them is stopped
 * mid-stream as a rolling update stops it (SIGTERM). The replica being stopped stops claiming,
 * gives back the deliveries waiting for a slot, lets the attempts in flight finish and records
 * them; its consumer leaves the group, whose partitions go to the other replica at once, and what it
 * stored but had not acknowledged comes again there and meets the unique event id
 * ({@code ON CONFLICT (event_id) DO NOTHING}): nothing is sent twice.
 *
 * <p>{@value #EVENTS} {@code item.approved} events of one partner (each its own request, so spread
 * over the 3 partitions) are published at once to a receiver that answers 200; once the first
 * arrive, the platform's webhook-service is stopped and every event is published again (same
 * envelope ids, as a relay resends after a crash: copies of what the stopped replica stored reach
 * the other one). Then: the receiver got exactly
 * {@value #EVENTS} POSTs, one per request id and one per {@code X-Webhook-Id}, each with a valid
 * signature, and for a few seconds more nothing; webhook-service holds exactly {@value #EVENTS}
 * deliveries of the partner, all {@code delivered} after one attempt with no lease left, so no
 * attempt is pending that could reach the receiver again later. (A SIGKILL instead would leave the
 * attempts in flight at the kill leased for 60 s and then sent again: at least once, as ChaosIT
 * shows.)
 *
 * <p>On the platform the test JVM shares: the stopped instance is started again and the replica
 * stopped at the end.
 */
@ExtendWith(RunningPlatform.class)
class WebhookReplicasIT {

    private static final int EVENTS = 300;
    private static final String GROUP = "webhook-service";
    /** After the last POST: long enough for a second attempt of a recorded delivery (the contract's first wait is 2 s). */
    private static final Duration QUIET = Duration.ofSeconds(4);

    private RunningPlatform.Handle platform;

    @Test
    void eachEventIsDeliveredOnceByTwoReplicasAndOneIsStopped(RunningPlatform.Handle platform) throws Exception {
        this.platform = platform;
        Platform services = platform.platform();
        String kafka = platform.infrastructure().kafka().bootstrapServers();
        URI replica = services.startReplica(PlatformService.WEBHOOK);
        boolean down = false;
        try (WebhookReceiver receiver = WebhookReceiver.ofSyntheticEvents((post, attempt) -> 200)) {
            JsonPath partner = ops().body(Map.of("name", "Webhook Replicas E2E " + UUID.randomUUID()))
                    .post("/ops/v1/partners").then().statusCode(201).extract().jsonPath();
            String partnerId = partner.getString("partner.id");
            String secret = ops().body(Map.of("url", receiver.url())).put("/ops/v1/partners/" + partnerId + "/webhook")
                    .then().statusCode(200).extract().path("secret");

            Instant decided = Instant.now();
            List<TopicWriter.Keyed> stream = new ArrayList<>();
            Set<String> requests = new TreeSet<>();
            for (int i = 0; i < EVENTS; i++) {
                CareEvents.Decision decision = CareEvents.approved(partnerId, UUID.randomUUID().toString(),
                        UUID.randomUUID().toString(), "Replica Drug " + i, decided);
                stream.add(decision.keyed());
                requests.add(decision.requestId());
            }

            await("both replicas in " + GROUP).atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
                    .until(() -> ConsumerGroups.assignment(kafka, GROUP, "care.events").size() == 2);
            TopicWriter.publish(kafka, stream);
            // Mid-stream: the first deliveries arrived.
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20)).until(() -> !receiver.received().isEmpty());
            // Throws unless it exits within the grace period (a graceful stop, not a kill).
            services.stop(PlatformService.WEBHOOK);
            down = true;
            // Every event once more, as an outbox relay resends after a crash: the remaining replica meets
            // copies of the events the stopped one stored, and must not send them again.
            TopicWriter.publish(kafka, stream);

            await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200))
                    .until(() -> receiver.received().size() >= EVENTS);
            // Every record, copies included, consumed and committed: a copy stored again would be sent by now
            // or within the quiet period.
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
                    .until(() -> ConsumerGroups.lag(kafka, GROUP, "care.events") == 0);
            await("nothing more").during(QUIET).atMost(QUIET.plusSeconds(2))
                    .until(() -> receiver.received().size() == EVENTS);
            List<WebhookReceiver.Received> posts = receiver.received();
            Map<String, Integer> perRequest = new TreeMap<>();
            Set<String> webhookIds = new TreeSet<>();
            for (WebhookReceiver.Received post : posts) {
                perRequest.merge(post.json().path("requestId").asText(), 1, Integer::sum);
                webhookIds.add(post.headers().get("x-webhook-id"));
                WebhookReceiver.assertSigned(post, secret);
            }
            assertEquals(requests, perRequest.keySet());
            assertEquals(Set.of(1), Set.copyOf(perRequest.values()), "POSTs per event");
            assertEquals(EVENTS, webhookIds.size());
            assertEquals(List.of((long) EVENTS, (long) EVENTS, (long) EVENTS, 0L), deliveries(partnerId));
        } finally {
            try {
                if (down) {
                    services.startAgain(PlatformService.WEBHOOK);
                }
            } finally {
                services.stopReplica(replica);
            }
        }
    }

    /** The partner's deliveries: all, delivered, with exactly one attempt, still leased. */
    private List<Long> deliveries(String partnerId) throws SQLException {
        PostgresServer postgres = platform.infrastructure().postgres();
        try (Connection connection = DriverManager.getConnection(postgres.jdbcUrl(PlatformService.WEBHOOK.database()),
                postgres.username(), postgres.password());
             PreparedStatement query = connection.prepareStatement("""
                     SELECT count(*), count(*) FILTER (WHERE status = 'delivered'),
                            count(*) FILTER (WHERE attempt_count = 1 AND (SELECT count(*) FROM delivery_attempts a WHERE a.delivery_id = d.id) = 1),
                            count(*) FILTER (WHERE lease_until IS NOT NULL AND status = 'retrying')
                     FROM deliveries d WHERE partner_id = ?""")) {
            query.setString(1, partnerId);
            try (ResultSet rows = query.executeQuery()) {
                rows.next();
                return List.of(rows.getLong(1), rows.getLong(2), rows.getLong(3), rows.getLong(4));
            }
        }
    }

    private RequestSpecification ops() {
        return given().baseUri(platform.gateway().toString()).header("x-ops-key", platform.opsKey()).contentType(ContentType.JSON);
    }
}
