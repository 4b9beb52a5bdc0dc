package com.telemed.webhook.delivery;

import com.telemed.webhook.WebhookConfig;
import com.telemed.webhook.settings.SecretCipher;
import io.agroal.api.AgroalDataSource;
import jakarta.inject.Singleton;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * The dispatcher's statements, plain JDBC on the service's datasource: they run many times a
 * second and in batches, outside any request. Times that decide scheduling ({@code next_attempt_at},
 * {@code lease_until}) come from the database clock, so several replicas agree on them.
 */
@Singleton
public class DeliveryStore {

    /**
     * Claims due deliveries: retrying, due, not leased (or leased by a replica that went away and
     * let the lease expire), oldest due first, skipping rows another replica is claiming right now.
     * Partners already at their in-flight bound are left out, so their backlog never fills the batch.
     * A delivery never attempted (in this round) has no signature yet: its partner's secret comes
     * with it (with the id of its key), for its first attempt to sign it; a signed one reuses its
     * stored timestamp and signature.
     *
     * <p>A held delivery's {@code next_attempt_at} is its lease's end (issue 44): this claim, the intake's leased
     * insert and the renewal move it there, and a give-back to now. So the claim's index range
     * ({@code deliveries_due_idx}, {@code next_attempt_at <= now()}) ends before the held rows instead of walking
     * past every one of them (during a burst, thousands, read again by every claim: 41 ms per claim of 125 rows in
     * bench/webhook-delivery.sh, the largest statement per event), and a held row whose replica died falls due
     * when its lease ends, as before. The lease condition stays for rows written otherwise (a redelivery's round).
     */
    static final String CLAIM = "UPDATE deliveries d SET lease_until = now() + ?::interval, next_attempt_at = now() + ?::interval"
            + " WHERE d.id IN (SELECT id FROM deliveries"
            + "   WHERE status = 'retrying' AND next_attempt_at <= now()"
            + "     AND (lease_until IS NULL OR lease_until < now())"
            + "     AND NOT (partner_id = ANY (?))"
            + "   ORDER BY next_attempt_at LIMIT ? FOR UPDATE SKIP LOCKED)"
            + " RETURNING d.id, d.partner_id, d.body, d.signed_at, d.signature, d.round_attempts,"
            + "   (SELECT s.url FROM webhook_settings s WHERE s.partner_id = d.partner_id) AS url,"
            + "   CASE WHEN d.signature IS NULL THEN"
            + "     (SELECT s.secret_encrypted FROM webhook_settings s WHERE s.partner_id = d.partner_id) END AS secret,"
            + "   CASE WHEN d.signature IS NULL THEN"
            + "     (SELECT s.secret_key_id FROM webhook_settings s WHERE s.partner_id = d.partner_id) END AS secret_key_id";

    /**
     * Only rows still leased: an attempt recorded (lease cleared) between reading the held ids and
     * this statement must not get a lease back, or its next attempt would wait for that lease.
     */
    static final String RENEW = "UPDATE deliveries SET lease_until = now() + ?::interval, next_attempt_at = now() + ?::interval"
            + " WHERE id = ANY (?) AND status = 'retrying' AND lease_until IS NOT NULL";

    /** Due at once for any replica (its {@code next_attempt_at} was its lease's end, see {@link #CLAIM}). */
    static final String RELEASE = "UPDATE deliveries SET lease_until = NULL, next_attempt_at = now()"
            + " WHERE id = ANY (?) AND status = 'retrying'";

    /**
     * The attempts' effect on their deliveries, in the statement that inserts the attempt rows ({@link #RECORD}): the
     * next attempt time is persisted with the attempt, and the lease is given back. The signature made by a delivery's
     * first attempt is stored here too, with that attempt (no statement of its own), and only into a row that has none:
     * once stored it is what every later attempt sends. The newest attempt (issue 44, round 4) too: its id and time
     * ({@code last_attempt_id}, {@code last_attempt_at}, what the events page shows as {@code lastAttemptAt}), the
     * greater id of the stored and this attempt's, so the row holds the attempt of the greatest id, as the page's
     * {@code ORDER BY id DESC LIMIT 1} over the attempts read before, even when two recordings of one delivery (a
     * replica whose lease ran out, and the one that took it over) take its row lock in the other order than their
     * inserts took their ids.
     */
    private static final String AFTER_ATTEMPTS = " UPDATE deliveries d SET status = u.status, attempt_count = d.attempt_count + 1,"
            + " round_attempts = d.round_attempts + 1, next_attempt_at = CASE WHEN u.retry THEN now() + u.wait END,"
            + " lease_until = NULL, updated_at = ?,"
            + " signed_at = CASE WHEN d.signature IS NULL THEN u.signed_at ELSE d.signed_at END,"
            + " signature = CASE WHEN d.signature IS NULL THEN u.signature ELSE d.signature END,"
            + " last_attempt_id = CASE WHEN d.last_attempt_id > a.id THEN d.last_attempt_id ELSE a.id END,"
            + " last_attempt_at = CASE WHEN d.last_attempt_id > a.id THEN d.last_attempt_at ELSE a.at END"
            + " FROM unnest(?::uuid[], ?::text[], ?::boolean[], ?::interval[], ?::text[], ?::text[])"
            + "   AS u(id, status, retry, wait, signed_at, signature)"
            + " JOIN attempts a ON a.delivery_id = u.id"
            + " WHERE d.id = u.id";

    /**
     * A recorder batch of distinct deliveries in <b>one statement</b>, committed on its own (issue 44, round 3): the
     * attempt rows, in the batch's order, and {@link #AFTER_ATTEMPTS} on their deliveries, joined to the rows inserted
     * (their ids). Before, a JDBC batch of inserts (rewritten into multi-row {@code VALUES} whose text, and so its parse
     * and plan, changed with the batch's size), the update and the {@code COMMIT}: three round trips and a statement
     * planned afresh per batch.
     */
    static final String RECORD = "WITH attempts AS (INSERT INTO delivery_attempts (delivery_id, at, http_status, error, duration_ms)"
            + " SELECT a.id, a.at, a.http_status, a.error, a.duration_ms"
            + " FROM unnest(?::uuid[], ?::timestamptz[], ?::integer[], ?::text[], ?::integer[]) WITH ORDINALITY"
            + "   AS a(id, at, http_status, error, duration_ms, n) ORDER BY a.n RETURNING id, delivery_id, at)"
            + AFTER_ATTEMPTS;

    private final AgroalDataSource dataSource;
    private final WebhookConfig config;
    private final SecretCipher cipher;
    private final RetryPolicy retryPolicy;

    public DeliveryStore(AgroalDataSource dataSource, WebhookConfig config, SecretCipher cipher, RetryPolicy retryPolicy) {
        this.dataSource = dataSource;
        this.config = config;
        this.cipher = cipher;
        this.retryPolicy = retryPolicy;
    }

    public List<Job> claim(int limit, Collection<String> saturatedPartners) throws SQLException {
        List<Job> jobs = new ArrayList<>();
        try (Connection connection = dataSource.getConnection();
             PreparedStatement claim = connection.prepareStatement(CLAIM)) {
            connection.setAutoCommit(true);
            claim.setString(1, interval(config.lease()));
            claim.setString(2, interval(config.lease()));
            claim.setArray(3, connection.createArrayOf("text", saturatedPartners.toArray(new String[0])));
            claim.setInt(4, limit);
            // One decryption per partner and claim (a burst's rows are mostly one partner's). A secret
            // that cannot be decrypted fails its partner's deliveries alone (logged by the cipher):
            // the claim, which has already leased every row it returns, goes on with the others.
            Map<String, Optional<String>> secrets = new HashMap<>();
            try (ResultSet rows = claim.executeQuery()) {
                while (rows.next()) {
                    UUID id = rows.getObject(1, UUID.class);
                    String partnerId = rows.getString(2);
                    String signature = rows.getString(5);
                    String url = rows.getString(7);
                    String body = rows.getString(3);
                    if (signature != null) {
                        jobs.add(Job.signed(id, partnerId, url, body, rows.getString(4), signature, rows.getInt(6)));
                        continue;
                    }
                    byte[] encrypted = rows.getBytes(8);
                    if (encrypted == null) {
                        jobs.add(Job.unsigned(id, partnerId, url, body, null, rows.getInt(6)));
                        continue;
                    }
                    String keyId = rows.getString(9);
                    Optional<String> secret = secrets.computeIfAbsent(partnerId,
                            partner -> cipher.readable(partner, keyId, encrypted));
                    jobs.add(secret.isPresent()
                            ? Job.unsigned(id, partnerId, url, body, secret.get(), rows.getInt(6))
                            : Job.unreadableSecret(id, partnerId, url, body, rows.getInt(6)));
                }
            }
        }
        return jobs;
    }

    /** Gives claimed deliveries back without attempting them (this replica has no capacity for them now). */
    public void release(Collection<UUID> ids) throws SQLException {
        if (ids.isEmpty()) {
            return;
        }
        try (Connection connection = dataSource.getConnection();
             PreparedStatement release = connection.prepareStatement(RELEASE)) {
            connection.setAutoCommit(true);
            release.setArray(1, connection.createArrayOf("uuid", ids.toArray(new UUID[0])));
            release.executeUpdate();
        }
    }

    /** Extends the leases of deliveries this replica holds (waiting or in flight). */
    public void renew(Collection<UUID> ids) throws SQLException {
        if (ids.isEmpty()) {
            return;
        }
        try (Connection connection = dataSource.getConnection();
             PreparedStatement renew = connection.prepareStatement(RENEW)) {
            connection.setAutoCommit(true);
            renew.setString(1, interval(config.lease()));
            renew.setString(2, interval(config.lease()));
            renew.setArray(3, connection.createArrayOf("uuid", ids.toArray(new UUID[0])));
            renew.executeUpdate();
        }
    }

    /**
     * Records attempts and their effect on their deliveries ({@link RetryPolicy#after}: status and
     * next attempt time): one statement ({@link #RECORD}) committed on its own, unless a delivery is in the
     * batch twice (never expected: one UPDATE counts a delivery once), which takes one {@link #RECORD} per round
     * ({@link #rounds}) in one transaction.
     */
    public void record(List<Outcome> outcomes) throws SQLException {
        List<List<Outcome>> rounds = rounds(outcomes);
        try (Connection connection = dataSource.getConnection()) {
            if (rounds.size() == 1) {
                connection.setAutoCommit(true);
                record(connection, outcomes);
                return;
            }
            connection.setAutoCommit(false);
            try {
                for (List<Outcome> round : rounds) {
                    record(connection, round);
                }
                connection.commit();
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            }
        }
    }

    /** {@link #RECORD} of these outcomes (no delivery twice) on this connection, in its transaction. */
    void record(Connection connection, List<Outcome> outcomes) throws SQLException {
        try (PreparedStatement record = connection.prepareStatement(RECORD)) {
            bindRecord(record, connection, outcomes, Timestamp.from(Instant.now()));
            record.executeUpdate();
        }
    }

    /** Binds {@link #RECORD}'s parameters for these outcomes (no delivery twice). */
    private void bindRecord(PreparedStatement record, Connection connection, List<Outcome> outcomes, Timestamp now)
            throws SQLException {
        int n = outcomes.size();
        UUID[] ids = new UUID[n];
        String[] at = new String[n];
        Integer[] statuses = new Integer[n];
        String[] errors = new String[n];
        Integer[] durations = new Integer[n];
        for (int i = 0; i < n; i++) {
            Outcome outcome = outcomes.get(i);
            ids[i] = outcome.job().id();
            at[i] = outcome.at().toString();
            statuses[i] = outcome.httpStatus();
            errors[i] = outcome.error();
            durations[i] = outcome.durationMs();
        }
        record.setArray(1, connection.createArrayOf("uuid", ids));
        record.setArray(2, connection.createArrayOf("text", at));
        record.setArray(3, connection.createArrayOf("integer", statuses));
        record.setArray(4, connection.createArrayOf("text", errors));
        record.setArray(5, connection.createArrayOf("integer", durations));
        bindAfter(record, 5, connection, outcomes, now);
    }

    /** Binds {@link #AFTER_ATTEMPTS}'s parameters for these outcomes, after the statement's first {@code offset}. */
    private void bindAfter(PreparedStatement statement, int offset, Connection connection, List<Outcome> round, Timestamp now)
            throws SQLException {
        int n = round.size();
        UUID[] ids = new UUID[n];
        String[] statuses = new String[n];
        Boolean[] retries = new Boolean[n];
        String[] waits = new String[n];
        String[] signedAt = new String[n];
        String[] signatures = new String[n];
        for (int i = 0; i < n; i++) {
            Outcome outcome = round.get(i);
            RetryPolicy.Decision decision = retryPolicy.after(outcome);
            ids[i] = outcome.job().id();
            statuses[i] = decision.status();
            retries[i] = decision.retry();
            waits[i] = decision.retry() ? interval(decision.backoff()) : "0";
            signedAt[i] = outcome.job().signedAt();
            signatures[i] = outcome.job().signature();
        }
        statement.setTimestamp(offset + 1, now);
        statement.setArray(offset + 2, connection.createArrayOf("uuid", ids));
        statement.setArray(offset + 3, connection.createArrayOf("text", statuses));
        statement.setArray(offset + 4, connection.createArrayOf("boolean", retries));
        statement.setArray(offset + 5, connection.createArrayOf("text", waits));
        statement.setArray(offset + 6, connection.createArrayOf("text", signedAt));
        statement.setArray(offset + 7, connection.createArrayOf("text", signatures));
    }

    /** The outcomes in rounds without a repeated delivery, in order. */
    static List<List<Outcome>> rounds(List<Outcome> outcomes) {
        List<List<Outcome>> rounds = new ArrayList<>();
        List<Set<UUID>> seen = new ArrayList<>();
        for (Outcome outcome : outcomes) {
            int round = 0;
            while (round < rounds.size() && seen.get(round).contains(outcome.job().id())) {
                round++;
            }
            if (round == rounds.size()) {
                rounds.add(new ArrayList<>());
                seen.add(new HashSet<>());
            }
            rounds.get(round).add(outcome);
            seen.get(round).add(outcome.job().id());
        }
        return rounds;
    }

    /** A PostgreSQL interval literal in milliseconds. */
    static String interval(Duration duration) {
        return duration.toMillis() + " milliseconds";
    }
}
