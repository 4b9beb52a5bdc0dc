package com.telemed.e2e;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.testkit.e2e.RunningPlatform;
import com.telemed.testkit.infra.PostgresServer;
import com.telemed.testkit.kafka.CareEvents;
import com.telemed.testkit.kafka.ConsumerGroups;
import com.telemed.testkit.kafka.TopicReader;
import com.telemed.testkit.kafka.TopicWriter;
import com.telemed.testkit.platform.Platform;
import com.telemed.testkit.platform.PlatformService;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import java.net.URI;
import java.sql.Array;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * messaging-service's {@code care.events} consumer with two replicas (architecture.md, "Several
 * replicas"): each decision becomes its system message exactly once while both consume, and when
 * one replica is killed mid-stream. The replicas share the group {@code messaging-service}, so each
 * holds some of the topic's partitions (the test waits for that before it publishes); a replica
 * killed with SIGKILL commits no offset on the way out, so the records it applied since its last
 * commit (the throttled strategy commits every 5 s) go to the survivor once the killed member's
 * session ends (10 s), together with the one it was applying, whose transaction rolled back. The
 * survivor finds the applied ones in {@code consumed_events}, written in the transaction of their
 * message, and posts nothing for them.
 *
 * <p>{@value #DECISIONS} item decisions (approvals and denials, each for a drug name of its own, so
 * each system message's text is unique) for {@value #CONVERSATIONS} conversations of one partner
 * are published at once, each under a request key of its own (spread over the 3 partitions); once
 * the first message is posted, the platform's messaging-service is killed, and the whole stream is
 * published again (same envelope ids, as a relay resends after a crash), so the survivor meets
 * copies of what the killed replica applied whatever offsets it had committed. Then: the
 * conversations hold exactly the {@value #DECISIONS} expected texts, each once; {@code consumed_events}
 * holds each envelope id; and {@code messaging.events} carries exactly one {@code message.system} per
 * message (by envelope id: the outbox relay publishes at least once), with its text. A consumer that
 * recorded nothing, or recorded the id outside the message's transaction, would post some twice.
 *
 * <p>On the platform the test JVM shares: the killed instance is started again and the replica
 * stopped at the end, so the tests after this one find messaging-service as it was.
 */
@ExtendWith(RunningPlatform.class)
class CareEventsReplicasIT {

    private static final int DECISIONS = 300;
    private static final int CONVERSATIONS = 4;
    private static final String GROUP = "messaging-service";
    private static final String SYSTEM_TEXTS = "SELECT conversation_id::text, text FROM messages"
            + " WHERE sender_role = 'system' AND conversation_id = ANY (?::uuid[])";

    private RunningPlatform.Handle platform;

    private record Conversation(String id, String memberId) {
    }

    @Test
    void eachDecisionIsPostedOnceWhileTwoReplicasConsumeAndOneIsKilled(RunningPlatform.Handle platform) throws Exception {
        this.platform = platform;
        Platform services = platform.platform();
        String kafka = platform.infrastructure().kafka().bootstrapServers();
        URI replica = services.startReplica(PlatformService.MESSAGING);
        boolean down = false;
        try {
            JsonPath partner = ops().body(Map.of("name", "Care Events Replicas E2E " + UUID.randomUUID()))
                    .post("/ops/v1/partners").then().statusCode(201).extract().jsonPath();
            String partnerId = partner.getString("partner.id");
            String apiKey = partner.getString("apiKey");
            String prescriberId = ops().body(Map.of("name", "Dr Replica", "email", "replica." + UUID.randomUUID() + "@clinic.example"))
                    .post("/ops/v1/prescribers").then().statusCode(201).extract().path("prescriber.id");
            List<Conversation> conversations = new ArrayList<>();
            for (int i = 0; i < CONVERSATIONS; i++) {
                String memberId = partner(apiKey).body("""
                                {"firstName": "Grace", "lastName": "Replica", "email": "grace.%s@example.com",
                                 "dateOfBirth": "1906-12-09", "state": "NY",
                                 "address": {"street1": "1 Navy Rd", "city": "Arlington", "state": "VA", "zipCode": "22202"}}"""
                                .formatted(UUID.randomUUID()))
                        .post("/v1/members").then().statusCode(201).extract().path("member.id");
                String conversationId = partner(apiKey).body(Map.of("memberId", memberId, "prescriberId", prescriberId))
                        .post("/v1/messages/conversations").then().statusCode(201).extract().path("conversation.id");
                conversations.add(new Conversation(conversationId, memberId));
            }

            // Both replicas hold partitions of care.events before anything is published.
            await("both replicas in " + GROUP).atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
                    .until(() -> ConsumerGroups.assignment(kafka, GROUP, "care.events").size() == 2);

            Instant decided = Instant.now();
            Map<String, List<String>> expected = new TreeMap<>();
            List<TopicWriter.Keyed> stream = new ArrayList<>();
            for (int i = 0; i < DECISIONS; i++) {
                Conversation conversation = conversations.get(i % CONVERSATIONS);
                String drug = "Replica Drug " + i;
                boolean approved = i % 3 != 0;
                CareEvents.Decision decision = approved
                        ? CareEvents.approved(partnerId, conversation.memberId(), prescriberId, drug, decided)
                        : CareEvents.denied(partnerId, conversation.memberId(), prescriberId, drug, decided);
                stream.add(decision.keyed());
                expected.computeIfAbsent(conversation.id(), id -> new ArrayList<>()).add(approved
                        ? "Your prescription request for " + drug + " has been approved."
                        : "Your prescription request for " + drug + " was not approved.");
            }
            expected.values().forEach(texts -> texts.sort(null));
            Set<String> ids = expected.keySet();

            TopicWriter.publish(kafka, stream);
            // Mid-stream: the first messages are posted, the replicas are at work on the rest.
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50))
                    .until(() -> systemTexts(ids).values().stream().mapToInt(List::size).sum() > 0);
            assertEquals(137, services.kill(PlatformService.MESSAGING));
            down = true;
            // Every decision once more, as an outbox relay resends a batch after a crash: the survivor takes
            // copies of what the killed replica had applied, whatever its offsets said.
            TopicWriter.publish(kafka, stream);

            // The survivor takes the killed replica's partitions once its session ends, and finishes.
            await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500))
                    .until(() -> systemTexts(ids).values().stream().mapToInt(List::size).sum() >= DECISIONS);
            // Every record, copies included, consumed and committed: a copy posted again would show now.
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
                    .until(() -> ConsumerGroups.lag(kafka, GROUP, "care.events") == 0);
            assertEquals(expected, systemTexts(ids));
            assertEquals(DECISIONS, consumedOnce(stream));
            // Their events, once the outbox is drained: one message.system per message. The relay sends at
            // least once (a kill between Kafka's ack and its commit sends a batch again, same envelope ids),
            // so events are told apart by envelope id.
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> outboxRows() == 0);
            Map<String, List<String>> announced = new TreeMap<>();
            Set<String> envelopes = new HashSet<>();
            for (ConsumerRecord<String, String> record : TopicReader.readToEnd(kafka, "messaging.events", Duration.ofSeconds(60))) {
                JsonNode event = TopicReader.json(record);
                if (ids.contains(record.key()) && "message.system".equals(event.path("type").asText())
                        && envelopes.add(event.path("id").asText())) {
                    assertEquals(record.key(), event.at("/webhook/conversationId").asText());
                    announced.computeIfAbsent(record.key(), id -> new ArrayList<>()).add(event.at("/webhook/messagePreview").asText());
                }
            }
            announced.values().forEach(texts -> texts.sort(null));
            assertEquals(expected, announced);
        } finally {
            try {
                if (down) {
                    services.startAgain(PlatformService.MESSAGING);
                }
            } finally {
                services.stopReplica(replica);
            }
        }
    }

    /** The system messages' texts per conversation, sorted. */
    private Map<String, List<String>> systemTexts(Set<String> conversationIds) throws SQLException {
        Map<String, List<String>> texts = new TreeMap<>();
        try (Connection connection = messagingDatabase();
             PreparedStatement query = connection.prepareStatement(SYSTEM_TEXTS)) {
            Array array = connection.createArrayOf("text", conversationIds.toArray());
            query.setArray(1, array);
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    texts.computeIfAbsent(rows.getString(1), id -> new ArrayList<>()).add(rows.getString(2));
                }
            }
        }
        texts.values().forEach(list -> list.sort(null));
        return texts;
    }

    /** How many of the stream's envelope ids {@code consumed_events} holds (its key makes each once at most). */
    private int consumedOnce(List<TopicWriter.Keyed> stream) throws SQLException {
        List<String> eventIds = stream.stream().map(record -> TopicReader.json(record.value()).path("id").asText()).toList();
        try (Connection connection = messagingDatabase();
             PreparedStatement query = connection.prepareStatement(
                     "SELECT count(*) FROM consumed_events WHERE event_id = ANY (?::uuid[])")) {
            query.setArray(1, connection.createArrayOf("text", eventIds.toArray()));
            try (ResultSet rows = query.executeQuery()) {
                rows.next();
                return rows.getInt(1);
            }
        }
    }

    private long outboxRows() throws SQLException {
        try (Connection connection = messagingDatabase();
             PreparedStatement query = connection.prepareStatement("SELECT count(*) FROM outbox_events");
             ResultSet rows = query.executeQuery()) {
            rows.next();
            return rows.getLong(1);
        }
    }

    private Connection messagingDatabase() throws SQLException {
        PostgresServer postgres = platform.infrastructure().postgres();
        return DriverManager.getConnection(postgres.jdbcUrl(PlatformService.MESSAGING.database()), postgres.username(),
                postgres.password());
    }

    private RequestSpecification ops() {
        return given().baseUri(platform.gateway().toString()).header("x-ops-key", platform.opsKey()).contentType(ContentType.JSON);
    }

    private RequestSpecification partner(String apiKey) {
        return given().baseUri(platform.gateway().toString()).header("x-api-key", apiKey).contentType(ContentType.JSON);
    }
}
