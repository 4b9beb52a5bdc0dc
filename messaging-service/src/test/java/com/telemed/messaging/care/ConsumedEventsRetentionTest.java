package com.telemed.messaging.care;

import static com.telemed.messaging.MessagingFixtures.conversation;
import static com.telemed.messaging.MessagingFixtures.newPartner;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.telemed.common.retention.Pruner;
import com.telemed.common.retention.RetentionJob;
import com.telemed.messaging.MessagingNeighbours;
import com.telemed.messaging.MessagingNeighboursResource;
import com.telemed.testkit.kafka.TopicWriter;
import com.telemed.testkit.quarkus.AuditEntriesAged;
import com.telemed.testkit.quarkus.InfrastructureResource;
import com.telemed.testkit.quarkus.ServiceDatabase;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@code consumed_events} keeps an id 30 days, then the retention job deletes it; an id inside the
 * window still stops a redelivered event. Ages are staged as a moved clock would give them.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(MessagingNeighboursResource.class)
class ConsumedEventsRetentionTest {

    @Inject
    MessagingNeighbours neighbours;

    @Inject
    RetentionJob retention;

    @Test
    void idsOlderThan30DaysArePrunedAndOnesInsideStillStopARedelivery() throws SQLException {
        neighbours.reset();
        String partnerId = newPartner();
        String memberId = neighbours.member(partnerId, "Ada", "Lovelace", "ada@example.com");
        String prescriberId = neighbours.prescriber("Dr. Grace Hopper", "grace@clinic.example");
        UUID conversationId = UUID.fromString(conversation(partnerId, memberId, prescriberId));
        String inside = UUID.randomUUID().toString();
        String approved = decision(inside, "item.approved", "Metformin", partnerId, memberId, prescriberId);
        publish(memberId, approved);
        await().atMost(Duration.ofSeconds(30)).until(() -> systemTexts(conversationId).size() == 1);

        // Consumed 29 days ago, and another 31 days ago.
        ServiceDatabase.update("UPDATE consumed_events SET consumed_at = now() - interval '29 days' WHERE event_id = ?",
                UUID.fromString(inside));
        UUID old = UUID.randomUUID();
        ServiceDatabase.update("INSERT INTO consumed_events (event_id, consumed_at) VALUES (?, now() - interval '31 days')", old);

        // Audit entries are kept six years (2,192 days; platform-commons' audit.AuditRetention): one a day older goes.
        AuditEntriesAged auditEntries = AuditEntriesAged.insert();
        assertEquals(List.of(new Pruner.Pruned("audit_entries", 1, 1, false), new Pruner.Pruned("consumed_events", 1, 1, false)),
                retention.prune().stream().sorted(Comparator.comparing(Pruner.Pruned::table)).toList());
        auditEntries.assertOnlyTheYoungerLeft();
        assertEquals(List.of(inside), ServiceDatabase.texts("SELECT event_id FROM consumed_events WHERE event_id IN (?, ?)",
                UUID.fromString(inside), old));

        // The kept id still recognises its event: redelivered, then a marker after it in the partition.
        String marker = UUID.randomUUID().toString();
        publish(memberId, approved, decision(marker, "item.denied", "Marker", partnerId, memberId, prescriberId));
        await().atMost(Duration.ofSeconds(30)).until(() -> ServiceDatabase.count(
                "SELECT count(*) FROM consumed_events WHERE event_id = ?", UUID.fromString(marker)) == 1);
        assertEquals(List.of("Your prescription request for Metformin has been approved.",
                "Your prescription request for Marker was not approved."), systemTexts(conversationId));
    }

    private static String decision(String id, String type, String prescriptionName, String partnerId, String memberId,
                                   String prescriberId) {
        String requestId = UUID.randomUUID().toString();
        return "{\"id\":\"" + id + "\",\"type\":\"" + type + "\",\"partnerId\":\"" + partnerId + "\","
                + "\"occurredAt\":\"" + Instant.now() + "\",\"subject\":{\"requestId\":\"" + requestId + "\",\"memberId\":\""
                + memberId + "\",\"prescriberId\":\"" + prescriberId + "\"},\"data\":{},\"webhook\":{\"event\":\"" + type
                + "\",\"requestId\":\"" + requestId + "\",\"prescriptionName\":\"" + prescriptionName
                + "\",\"timestamp\":\"2026-11-24T09:30:00.000Z\"}}";
    }

    /** Under the member's key: one partition, consumed in the order published. */
    private static void publish(String memberId, String... envelopes) {
        TopicWriter.publish(InfrastructureResource.running().kafka().bootstrapServers(), "care.events", memberId, envelopes);
    }

    private static List<String> systemTexts(UUID conversationId) {
        return ServiceDatabase.texts("SELECT text FROM messages WHERE conversation_id = ? AND sender_role = 'system' ORDER BY seq",
                conversationId);
    }
}
