package com.telemed.webhook.intake;

import com.telemed.common.json.Timestamps;
import com.telemed.webhook.WebhookConfig;
import com.telemed.webhook.delivery.DeliveryMetrics;
import com.telemed.webhook.delivery.Dispatcher;
import com.telemed.webhook.delivery.Job;
import com.telemed.webhook.delivery.PartnerSlots;
import com.telemed.webhook.events.EventRecorder;
import com.telemed.webhook.settings.SecretCipher;
import io.agroal.api.AgroalDataSource;
import jakarta.inject.Singleton;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.locks.ReentrantLock;
import org.jboss.logging.Logger;

/**
 * Turns a batch of envelopes into events and deliveries, in one statement (its own transaction): the partners'
 * settings are read once, every event is recorded in {@code events} with its partner's next sequence numbers
 * ({@link EventRecorder}; README, Events), events of a partner without URL are recorded as dropped, the others become deliveries
 * (the delivery's id, {@code X-Webhook-Id}, is the event's id), not
 * signed yet: a delivery is signed by its first attempt (which may come minutes later, after a
 * burst), and that timestamp and signature are then fixed for every attempt. As many as the dispatcher has room
 * for are leased to this replica and sent at once; the rest are stored unleased and claimed when
 * there is room. {@code ON CONFLICT (event_id) DO NOTHING} is the deduplication: an envelope
 * seen before (Kafka redelivers after a crash or rebalance; the outbox publishes at least once)
 * inserts nothing and is not sent again.
 */
@Singleton
public class Intake {

    private static final Logger LOG = Logger.getLogger(Intake.class);

    /**
     * The whole batch in one statement (issue 44; before, five round trips: the settings, the counters, the events,
     * the deliveries, the commit): {@link EventRecorder#RECORD}'s events (parameters 1 to 6), then the batch
     * partners' settings, a delivery of every new event whose partner has a URL ({@code leased}, parameter 7, by
     * batch position; 8 and 9 the lease, 10 and 11 {@code created_at}/{@code updated_at}), and a dropped event of
     * every other new event (12, its {@code at}). All its parts read one snapshot, taken when it starts. It answers
     * one row per new event ({@code event}), new delivery ({@code delivery}), dropped event ({@code dropped}) and
     * the settings of each batch partner with a URL ({@code settings}: partner, URL, key id, secret).
     */
    static final String STORE = EventRecorder.RECORD + ","
            + " leases AS (SELECT * FROM unnest(?::boolean[]) WITH ORDINALITY AS l(leased, n)),"
            + " settings AS (SELECT s.partner_id, s.url, s.secret_encrypted, s.secret_key_id FROM webhook_settings s"
            + "   WHERE s.partner_id IN (SELECT partner_id FROM partners) AND s.url IS NOT NULL),"
            + " delivered AS (INSERT INTO deliveries (id, partner_id, event_id, event, body,"
            + "     status, attempt_count, round_attempts, next_attempt_at, lease_until, created_at, updated_at)"
            + "   SELECT r.id, r.partner_id, r.event_id, r.type, r.body, 'retrying', 0, 0,"
            + "     CASE WHEN l.leased THEN now() + ?::interval ELSE now() END, CASE WHEN l.leased THEN now() + ?::interval END, ?, ?"
            + "   FROM recorded r JOIN batch b ON b.id = r.id JOIN leases l ON l.n = b.n"
            + "   WHERE r.partner_id IN (SELECT partner_id FROM settings)"
            + "   ORDER BY b.n"
            + "   ON CONFLICT (event_id) DO NOTHING RETURNING id),"
            + " dropped AS (INSERT INTO dropped_events (event_id, partner_id, event, at)"
            + "   SELECT r.event_id, r.partner_id, r.type, ? FROM recorded r"
            + "   WHERE r.partner_id NOT IN (SELECT partner_id FROM settings)"
            + "   ON CONFLICT (event_id) DO NOTHING RETURNING event_id)"
            + " SELECT 'event', r.event_id, NULL::text, NULL::text, NULL::bytea FROM recorded r"
            + " UNION ALL SELECT 'delivery', d.id::text, NULL, NULL, NULL FROM delivered d"
            + " UNION ALL SELECT 'dropped', x.event_id, NULL, NULL, NULL FROM dropped x"
            + " UNION ALL SELECT 'settings', s.partner_id, s.url, s.secret_key_id, s.secret_encrypted FROM settings s";

    /** A partner's URL and its secret as stored (encrypted, with the id of its key). */
    private record Settings(String url, String secretKeyId, byte[] secretEncrypted) {
    }

    /**
     * What one batch did: {@code fresh} are the new deliveries leased here, {@code unleased} the others stored;
     * {@code ids} the new events' ids ({@code X-Webhook-Id}) by envelope id.
     */
    public record Result(List<Job> fresh, int unleased, int dropped, int skipped, Map<String, UUID> ids) {
    }

    private final AgroalDataSource dataSource;
    private final SecretCipher cipher;
    private final WebhookConfig config;
    private final Dispatcher dispatcher;
    private final DeliveryMetrics metrics;
    /** {@link #record}'s turns: one batch of this replica at a time. */
    private final ReentrantLock turns = new ReentrantLock();

    public Intake(AgroalDataSource dataSource, SecretCipher cipher, WebhookConfig config, Dispatcher dispatcher,
                  DeliveryMetrics metrics) {
        this.dataSource = dataSource;
        this.cipher = cipher;
        this.config = config;
        this.dispatcher = dispatcher;
        this.metrics = metrics;
    }

    /** Stores a batch (throws when the database fails: nothing is committed, the batch is not acknowledged). */
    public Result accept(List<String> envelopes) throws SQLException {
        Map<String, Envelopes.Webhook> byId = new LinkedHashMap<>();
        int malformed = 0;
        int internal = 0;
        for (String text : envelopes) {
            Envelopes.Read read = Envelopes.read(text);
            if (read.webhook() != null) {
                byId.putIfAbsent(read.webhook().eventId(), read.webhook());
            } else if (read.skip() == Envelopes.Skip.MALFORMED) {
                malformed++;
            } else {
                internal++;
            }
        }
        if (malformed > 0) {
            LOG.warnf("Skipped %d malformed event envelope(s)", malformed);
        }
        if (byId.isEmpty()) {
            return new Result(List.of(), 0, 0, malformed + internal, Map.of());
        }
        return record(new ArrayList<>(byId.values()), malformed + internal);
    }

    /**
     * Records webhooks of distinct envelope ids as {@link #accept} does (also the partner's own
     * {@code webhook.test}, testwebhook.WebhookTestResource), then hands the leased deliveries to the dispatcher.
     *
     * <p>One batch at a time in this replica (issue 44), from reading the dispatcher's room to handing off what it
     * leased. Batches took turns anyway: each holds most of the partners whose counter rows it locks until its
     * commit (README, Events), so concurrent batches waited in PostgreSQL (2.5 s per counter statement in
     * bench/webhook-delivery.sh), each holding a connection; and two batches read the same room before either had
     * handed off, leased more than fit and gave the rest back. Another replica's
     * batches still meet this one's on the counter rows.
     */
    public Result record(List<Envelopes.Webhook> webhooks, int skipped) throws SQLException {
        Result result;
        turns.lock();
        try {
            result = store(webhooks, skipped);
            dispatcher.handOff(result.fresh());
        } finally {
            turns.unlock();
        }
        metrics.dropped(result.dropped());
        if (result.unleased() > 0) {
            dispatcher.storedUnleased();
        }
        return result;
    }

    /**
     * One statement ({@link #STORE}), committed on its own. As many deliveries as the dispatcher has room for are
     * leased, in batch order: the room is read before the statement knows which partners have a URL or which events
     * are new, so an event dropped or seen before takes room from its own partner and from the replica's total
     * (at most one batch, 500; the total is 5,256 when idle): a delivery that finds no room is stored unleased and
     * claimed when there is (as before). The secret of a partner with leased deliveries is decrypted once.
     */
    private Result store(List<Envelopes.Webhook> webhooks, int skipped) throws SQLException {
        int n = webhooks.size();
        Map<String, UUID> ids = new LinkedHashMap<>();
        List<EventRecorder.NewEvent> events = new ArrayList<>(n);
        Boolean[] leased = new Boolean[n];
        Map<UUID, Envelopes.Webhook> leasedWebhooks = new HashMap<>();
        PartnerSlots.Room room = dispatcher.room(webhooks.stream().map(Envelopes.Webhook::partnerId).distinct().toList());
        Map<String, Integer> perPartner = new HashMap<>(room.perPartner());
        int total = room.total();
        for (int i = 0; i < n; i++) {
            Envelopes.Webhook webhook = webhooks.get(i);
            UUID id = UUID.randomUUID();
            ids.put(webhook.eventId(), id);
            events.add(new EventRecorder.NewEvent(id, webhook.partnerId(), webhook.eventId(), webhook.event(), webhook.body()));
            int partnerRoom = perPartner.getOrDefault(webhook.partnerId(), 0);
            leased[i] = partnerRoom > 0 && total > 0;
            if (leased[i]) {
                perPartner.put(webhook.partnerId(), partnerRoom - 1);
                total--;
                leasedWebhooks.put(id, webhook);
            }
        }
        Instant at = Timestamps.now();
        Timestamp now = Timestamp.from(at);
        Set<String> recorded = new HashSet<>();
        List<UUID> delivered = new ArrayList<>();
        Map<String, Settings> settings = new HashMap<>();
        int dropped = 0;
        try (Connection connection = dataSource.getConnection();
             PreparedStatement store = connection.prepareStatement(STORE)) {
            connection.setAutoCommit(true);
            EventRecorder.bind(store, connection, events, at);
            store.setArray(7, connection.createArrayOf("boolean", leased));
            // A leased delivery is due when its lease ends (DeliveryStore.CLAIM: claims never walk past held rows).
            store.setString(8, config.lease().toMillis() + " milliseconds");
            store.setString(9, config.lease().toMillis() + " milliseconds");
            store.setTimestamp(10, now);
            store.setTimestamp(11, now);
            store.setTimestamp(12, now);
            try (ResultSet rows = store.executeQuery()) {
                while (rows.next()) {
                    switch (rows.getString(1)) {
                        case "event" -> recorded.add(rows.getString(2));
                        case "delivery" -> delivered.add(UUID.fromString(rows.getString(2)));
                        case "dropped" -> dropped++;
                        default -> settings.put(rows.getString(2),
                                new Settings(rows.getString(3), rows.getString(4), rows.getBytes(5)));
                    }
                }
            }
        }
        ids.keySet().retainAll(recorded);
        List<Job> fresh = new ArrayList<>();
        int unleased = 0;
        // A secret that cannot be decrypted fails that partner's deliveries alone (logged by the cipher); throwing
        // here rolled the whole batch back and retried it every second, forever, so no partner received anything.
        Map<String, Optional<String>> secrets = new HashMap<>();
        for (UUID id : delivered) {
            Envelopes.Webhook webhook = leasedWebhooks.get(id);
            if (webhook == null) {
                unleased++;
                continue;
            }
            Settings partner = settings.get(webhook.partnerId());
            Optional<String> secret = secrets.computeIfAbsent(webhook.partnerId(), partnerId -> partner.secretEncrypted() == null
                    ? Optional.empty() : cipher.readable(partnerId, partner.secretKeyId(), partner.secretEncrypted()));
            fresh.add(secret.isPresent()
                    ? Job.unsigned(id, webhook.partnerId(), partner.url(), webhook.body(), secret.get(), 0)
                    : Job.unreadableSecret(id, webhook.partnerId(), partner.url(), webhook.body(), 0));
        }
        return new Result(fresh, unleased, dropped, skipped, ids);
    }
}
