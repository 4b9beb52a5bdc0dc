package com.telemed.webhook.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.testkit.quarkus.InfrastructureResource;
import com.telemed.testkit.quarkus.ServiceDatabase;
import com.telemed.webhook.support.Events;
import com.telemed.webhook.support.Partners;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The recorder's one statement (issue 44, round 3: {@link DeliveryStore#RECORD}, where there were a multi-row insert,
 * the update and the commit): a batch of a delivered, a failed-to-connect and a 500 attempt stores the attempt rows in
 * batch order with their values and each delivery's new state, exactly as the two statements did; a batch holding one
 * delivery twice (the rounds) still counts both attempts. The deliveries are staged held far into the future, so no
 * claim of the running service touches them.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
class RecordStatementTest {

    @Inject
    DeliveryStore store;

    private static UUID stage(String partner) {
        UUID id = UUID.randomUUID();
        Timestamp created = Timestamp.from(Instant.now());
        ServiceDatabase.update("INSERT INTO deliveries (id, partner_id, event_id, event, body, signed_at, signature, status,"
                        + " attempt_count, round_attempts, next_attempt_at, lease_until, created_at, updated_at)"
                        + " VALUES (?, ?, ?, 'item.approved', '{\"n\":1}', NULL, NULL, 'retrying', 0, 0,"
                        + " now() + interval '1 day', now() + interval '1 day', ?, ?)",
                id, partner, Events.newId(), created, created);
        return id;
    }

    private static Job signed(UUID id, String partner) {
        return Job.signed(id, partner, "http://127.0.0.1:9/hooks", "{\"n\":1}", "1763717400", "sha256=ab", 0);
    }

    private static Map<String, Object> delivery(UUID id) {
        return ServiceDatabase.rows("SELECT status, attempt_count, round_attempts, lease_until, signed_at, signature,"
                + " next_attempt_at > now() + interval '1 second' AS waits, next_attempt_at < now() + interval '3 seconds' AS soon"
                + " FROM deliveries WHERE id = ?", id).get(0);
    }

    @Test
    void aBatchStoresItsAttemptsInOrderAndEachDeliverysNewStateInOneStatement() throws Exception {
        String partner = Partners.newPartner();
        UUID delivered = stage(partner);
        UUID refused = stage(partner);
        UUID failing = stage(partner);
        Instant at = Instant.now().truncatedTo(ChronoUnit.MICROS);

        store.record(List.of(
                new Outcome(signed(delivered, partner), at, 204, null, 7),
                new Outcome(signed(refused, partner), at.plusMillis(1), null, Sender.CONNECTION_FAILED, 0),
                new Outcome(signed(failing, partner), at.plusMillis(2), 500, null, 12)));

        List<Map<String, Object>> attempts = ServiceDatabase.rows("SELECT delivery_id, at, http_status, error, duration_ms"
                + " FROM delivery_attempts WHERE delivery_id IN (?, ?, ?) ORDER BY id", delivered, refused, failing);
        assertEquals(List.of(delivered, refused, failing), attempts.stream().map(row -> row.get("delivery_id")).toList(),
                "attempt rows in batch order");
        assertEquals(Timestamp.from(at).toInstant(), ((Timestamp) attempts.get(0).get("at")).toInstant());
        assertEquals(204, attempts.get(0).get("http_status"));
        assertNull(attempts.get(0).get("error"));
        assertEquals(7, attempts.get(0).get("duration_ms"));
        assertNull(attempts.get(1).get("http_status"));
        assertEquals("connection failed", attempts.get(1).get("error"));
        assertEquals(500, attempts.get(2).get("http_status"));
        assertEquals(12, attempts.get(2).get("duration_ms"));

        Map<String, Object> done = delivery(delivered);
        assertEquals("delivered", done.get("status"));
        assertEquals(1, done.get("attempt_count"));
        assertNull(done.get("lease_until"), "the lease is given back");
        assertEquals("1763717400", done.get("signed_at"), "the first attempt's timestamp is stored with it");
        assertEquals("sha256=ab", done.get("signature"));
        for (UUID retrying : List.of(refused, failing)) {
            Map<String, Object> row = delivery(retrying);
            assertEquals("retrying", row.get("status"));
            assertEquals(1, row.get("attempt_count"));
            assertEquals(1, row.get("round_attempts"));
            assertNull(row.get("lease_until"));
            assertTrue((Boolean) row.get("waits") && (Boolean) row.get("soon"), "due again after the 2 s wait");
        }
    }

    @Test
    void aDeliveryTwiceInOneBatchCountsBothAttempts() throws Exception {
        String partner = Partners.newPartner();
        UUID twice = stage(partner);
        Instant at = Instant.now();

        store.record(List.of(
                new Outcome(signed(twice, partner), at, 500, null, 3),
                new Outcome(signed(twice, partner), at.plusMillis(1), 500, null, 4)));

        assertEquals(2, ServiceDatabase.count("SELECT count(*) FROM delivery_attempts WHERE delivery_id = ?", twice));
        Map<String, Object> row = delivery(twice);
        assertEquals(2, row.get("attempt_count"));
        assertEquals(2, row.get("round_attempts"));
        assertEquals("retrying", row.get("status"));
    }
}
