package com.telemed.billing.ledger;

import static com.telemed.testkit.kafka.BillingEvents.approved;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.telemed.billing.rebuild.OwnersNeighbourResource;
import com.telemed.common.retention.Pruner;
import com.telemed.common.retention.RetentionJob;
import com.telemed.testkit.kafka.BillingEvents;
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
 * {@code consumed_events} keeps an applied id 30 days, then the retention job deletes it; the ledger
 * rows the event made stay. Ages are staged as a moved clock would give them.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(OwnersNeighbourResource.class)
class ConsumedEventsRetentionTest {

    @Inject
    RetentionJob retention;

    @Test
    void idsOlderThan30DaysArePrunedAndTheLedgerStays() throws SQLException {
        String partner = "partner-" + UUID.randomUUID();
        String member = UUID.randomUUID().toString();
        BillingEvents.Envelope approval = approved(partner, member, Instant.parse("2026-09-01T10:00:00Z"));
        TopicWriter.publish(InfrastructureResource.running().kafka().bootstrapServers(), approval.topic(), approval.key(), approval.json());
        await().atMost(Duration.ofSeconds(30)).until(() -> ServiceDatabase.count(
                "SELECT count(*) FROM consumed_events WHERE event_id = ?", UUID.fromString(approval.id())) == 1);

        // The approval was applied 31 days ago; another id 29 days ago.
        ServiceDatabase.update("UPDATE consumed_events SET consumed_at = now() - interval '31 days' WHERE event_id = ?",
                UUID.fromString(approval.id()));
        UUID inside = UUID.randomUUID();
        ServiceDatabase.update("INSERT INTO consumed_events (event_id, consumed_at) VALUES (?, now() - interval '29 days')", inside);

        // Audit entries are kept six years (2,192 days; platform-commons' audit.AuditRetention): one a day older goes.
        AuditEntriesAged auditEntries = AuditEntriesAged.insert();
        assertEquals(List.of(new Pruner.Pruned("audit_entries", 1, 1, false), new Pruner.Pruned("consumed_events", 1, 1, false)),
                retention.prune().stream().sorted(Comparator.comparing(Pruner.Pruned::table)).toList());
        auditEntries.assertOnlyTheYoungerLeft();
        assertEquals(List.of(inside.toString()), ServiceDatabase.texts(
                "SELECT event_id FROM consumed_events WHERE event_id IN (?, ?)", UUID.fromString(approval.id()), inside));
        assertEquals(List.of(partner + " 2026-09-01 10:00:00+00"), ServiceDatabase.texts(
                "SELECT partner_id || ' ' || (billing_start AT TIME ZONE 'UTC')::text || '+00' FROM ledger_members WHERE member_id = ?",
                UUID.fromString(member)));
    }
}
