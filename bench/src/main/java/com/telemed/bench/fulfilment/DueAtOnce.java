package com.telemed.bench.fulfilment;

import com.telemed.bench.support.ServiceLog;
import com.telemed.bench.support.Waits;
import com.telemed.testkit.infra.PostgresServer;
import com.telemed.testkit.platform.PlatformService;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The scenario, one round at a time: scheduled items come due at once (one SQL {@code UPDATE line_items SET
 * transmit_due_at = now()} of all of them on requests-service's database); the clock starts when it has committed
 * and stops when a poll (every {@link #POLL}) sees the last of them {@code pharmacy_sent}. Then the checks: every
 * item exactly once at the pharmacy (keys = the items, no repeat), every item {@code pharmacy_sent} with an order
 * id of its own, one {@code sent_to_pharmacy} history entry and record each. {@link RoundProbes} watches beside it.
 */
final class DueAtOnce {

    static final Duration POLL = Duration.ofMillis(50);
    private static final Duration ROUND_CAP = Duration.ofMinutes(5);

    /** What a round came to. */
    record Round(String name, int items, double seconds, double pharmacyFirst, double pharmacyLast, double dbLast,
                 boolean complete, List<String> problems, String cpu, Map<String, ServiceLog.Summary> logs, String quiet) {
        double perSecond() {
            return items / seconds;
        }
    }

    /** What the polls saw: sent, claimed (in flight) and held or failed at the last, the batches (claims), the most claimed. */
    private record Polled(int sent, int heldOrFailed, Set<UUID> claims, int maxClaimed, long doneNanos) {
    }

    private final PostgresServer postgres;
    private final LoopbackPharmacy pharmacy;
    private final RoundProbes probes;

    DueAtOnce(PostgresServer postgres, LoopbackPharmacy pharmacy, RoundProbes probes) {
        this.postgres = postgres;
        this.pharmacy = pharmacy;
        this.probes = probes;
    }

    /** One round: the items come due in one UPDATE; polled until all are sent; checked. */
    Round run(Connection db, String name, List<FulfilmentData.Item> items) throws Exception {
        int n = items.size();
        Object[] ids = items.stream().map(FulfilmentData.Item::itemId).toArray();
        LoopbackPharmacy.Round orders = pharmacy.startRound();
        RoundProbes.Window watch = probes.open(db, "measured".equals(name) ? System.getenv("BENCH_JFR") : null);

        long updateStarted = System.nanoTime();
        Instant due = makeDue(db, ids);
        long t0 = System.nanoTime(); // autocommit: the UPDATE has committed when its result is read
        long updateMs = (t0 - updateStarted) / 1_000_000;
        Polled polled = pollUntilSent(ids);
        boolean complete = polled.doneNanos() != 0;
        long stopped = complete ? polled.doneNanos() : System.nanoTime();
        watch.stop();

        List<String> problems = new ArrayList<>();
        if (!complete) {
            problems.add(String.format("only %d of %d sent within %d s (%d held or failed)", polled.sent(), n,
                    ROUND_CAP.toSeconds(), polled.heldOrFailed()));
        }
        problems.addAll(pharmacyChecks(orders, items));
        Instant lastSent = databaseChecks(db, ids, problems);
        Thread.sleep(1500); // backends report their table statistics within a second or so
        String scans = watch.scans(db);
        Map<String, ServiceLog.Summary> logged = watch.logged();

        double seconds = (stopped - t0) / 1e9;
        double first = orders.arrivals.isEmpty() ? Double.NaN : (orders.firstNanos() - t0) / 1e9;
        double last = orders.arrivals.isEmpty() ? Double.NaN : (orders.lastNanos() - t0) / 1e9;
        double dbLast = lastSent == null || due == null ? Double.NaN : Duration.between(due, lastSent).toNanos() / 1e9;
        System.out.printf("UPDATE of %d rows took %d ms; polled every %d ms; %d batches (claims) seen, at most %d items"
                + " claimed and unsent at a poll%n", n, updateMs, POLL.toMillis(), polled.claims().size(), polled.maxClaimed());
        System.out.println("per replica (orders by the client port they came from): " + watch.perReplica(orders, t0));
        System.out.println("orders reaching the pharmacy per " + RoundProbes.BUCKET_MS + " ms after the UPDATE's commit: "
                + watch.timeline(orders, t0));
        System.out.println("PostgreSQL scans during the round (seq / index, pg_stat_user_tables): " + scans);
        System.out.println("plan of a transmission's record lookup (Transmissions.claimed: lineItemId = ?, status <> voided,"
                + " newest first): " + RoundProbes.recordLookupPlan(db, items.get(0).itemId()));
        watch.printThreads();
        return new Round(name, n, seconds, first, last, dbLast, complete, problems, watch.cpu(n), logged, watch.quiet(seconds));
    }

    /** Makes every item due now in one UPDATE; the due time as the database set it. */
    private static Instant makeDue(Connection db, Object[] ids) throws Exception {
        try (PreparedStatement update = db.prepareStatement("UPDATE line_items SET transmit_due_at = now()"
                + " WHERE id = ANY(?) AND transmit_due_at IS NOT NULL AND NOT pharmacy_sent RETURNING transmit_due_at")) {
            update.setArray(1, db.createArrayOf("uuid", ids));
            int updated = 0;
            Instant first = null;
            try (ResultSet rs = update.executeQuery()) {
                while (rs.next()) {
                    updated++;
                    first = first == null ? rs.getTimestamp(1).toInstant() : first;
                }
            }
            if (updated != ids.length) {
                throw new IllegalStateException("the UPDATE made " + updated + " of " + ids.length + " items due");
            }
            return first;
        }
    }

    /** Polls every {@link #POLL}, on a connection of its own, until every item is sent or the round's cap passed. */
    private Polled pollUntilSent(Object[] ids) throws Exception {
        Set<UUID> claims = new HashSet<>();
        int[] state = new int[3];
        long[] done = new long[1];
        int[] maxClaimed = new int[1];
        try (Connection poll = DriverManager.getConnection(postgres.jdbcUrl(PlatformService.REQUESTS.database()),
                postgres.username(), postgres.password());
             PreparedStatement st = poll.prepareStatement("SELECT count(*) FILTER (WHERE pharmacy_sent),"
                     + " count(*) FILTER (WHERE transmission_claim IS NOT NULL AND NOT pharmacy_sent),"
                     + " count(*) FILTER (WHERE transmission_error IS NOT NULL AND NOT pharmacy_sent),"
                     + " array_agg(DISTINCT transmission_claim) FILTER (WHERE transmission_claim IS NOT NULL)"
                     + " FROM line_items WHERE id = ANY(?)")) {
            st.setArray(1, poll.createArrayOf("uuid", ids));
            Waits.until(ROUND_CAP, POLL, () -> {
                try (ResultSet rs = st.executeQuery()) {
                    rs.next();
                    state[0] = rs.getInt(1);
                    state[1] = rs.getInt(2);
                    state[2] = rs.getInt(3);
                    maxClaimed[0] = Math.max(maxClaimed[0], state[1]);
                    java.sql.Array array = rs.getArray(4);
                    if (array != null) {
                        for (Object claim : (Object[]) array.getArray()) {
                            claims.add((UUID) claim);
                        }
                    }
                    if (state[0] == ids.length) {
                        done[0] = System.nanoTime();
                        return true;
                    }
                    return false;
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
        }
        return new Polled(state[0], state[2], claims, maxClaimed[0], done[0]);
    }

    /** Every item exactly once at the pharmacy, under its own Idempotency-Key. */
    private static List<String> pharmacyChecks(LoopbackPharmacy.Round orders, List<FulfilmentData.Item> items) {
        List<String> problems = new ArrayList<>();
        Set<String> expected = new HashSet<>();
        items.forEach(item -> expected.add(item.itemId().toString()));
        if (orders.posts.get() != items.size()) {
            problems.add("the pharmacy received " + orders.posts.get() + " orders, not " + items.size());
        }
        if (orders.repeats.get() != 0) {
            problems.add(orders.repeats.get() + " orders were posted again (a repeated Idempotency-Key)");
        }
        if (orders.mismatched.get() != 0) {
            problems.add(orders.mismatched.get() + " orders whose Idempotency-Key is not their orderReference");
        }
        if (!orders.orders.keySet().equals(expected)) {
            problems.add("the pharmacy's order keys are not exactly the round's items");
        }
        return problems;
    }

    /** Every item sent with an order id of its own, its history entry and record; the last pharmacy_sent_at. */
    private static Instant databaseChecks(Connection db, Object[] ids, List<String> problems) throws Exception {
        int n = ids.length;
        try (PreparedStatement st = db.prepareStatement("SELECT count(*) FILTER (WHERE pharmacy_sent),"
                + " count(DISTINCT pharmacy_order_id), count(*) FILTER (WHERE transmission_error IS NOT NULL),"
                + " max(pharmacy_sent_at), (SELECT count(*) FROM history_entries h WHERE h.item_id = ANY(?) AND h.action = 'sent_to_pharmacy'),"
                + " (SELECT count(*) FROM prescription_records r WHERE r.line_item_id = ANY(?) AND r.status = 'sent_to_pharmacy')"
                + " FROM line_items WHERE id = ANY(?)")) {
            for (int i = 1; i <= 3; i++) {
                st.setArray(i, db.createArrayOf("uuid", ids));
            }
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                if (rs.getInt(1) != n || rs.getInt(2) != n || rs.getInt(5) != n || rs.getInt(6) != n) {
                    problems.add(String.format("database: %d pharmacy_sent, %d distinct order ids, %d sent_to_pharmacy history"
                            + " entries, %d records sent_to_pharmacy (of %d)", rs.getInt(1), rs.getInt(2), rs.getInt(5), rs.getInt(6), n));
                }
                if (rs.getInt(3) != 0) {
                    problems.add(rs.getInt(3) + " items with a transmission_error (held or failed)");
                }
                return rs.getTimestamp(4) == null ? null : rs.getTimestamp(4).toInstant();
            }
        }
    }
}
