package com.telemed.testkit.quarkus;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.UUID;

/**
 * Two audit entries in the service's {@code audit_entries} about six years old (platform-commons'
 * {@code audit.AuditRetention} keeps 2,192 days): one a day older, which the retention job must
 * delete, and one a day younger, which it must keep. For each auditing service's retention test.
 */
public record AuditEntriesAged(UUID old, UUID kept) {

    /** Inserts the two entries. */
    public static AuditEntriesAged insert() {
        AuditEntriesAged entries = new AuditEntriesAged(UUID.randomUUID(), UUID.randomUUID());
        for (Object[] entry : new Object[][] {{entries.old, 2193}, {entries.kept, 2191}}) {
            ServiceDatabase.update("INSERT INTO audit_entries (id, at, actor_type, actor_id, action, target_type)"
                    + " VALUES (?, now() - make_interval(days => ?), 'operator_key', 'service', 'retention.test', 'retention')",
                    entry[0], entry[1]);
        }
        return entries;
    }

    /** Asserts that of the two, only the younger is left. */
    public void assertOnlyTheYoungerLeft() {
        assertEquals(List.of(kept.toString()), ServiceDatabase.texts("SELECT id FROM audit_entries WHERE id IN (?, ?)", old, kept));
    }
}
