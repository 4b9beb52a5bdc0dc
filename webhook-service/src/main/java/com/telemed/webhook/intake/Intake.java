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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.locks.ReentrantLock;
import org.jboss.logging.Logger;

/**
 * Turns a batch of envelopes into events and deliveries, in one transaction: the partners' settings are read
 * once, every event is recorded in {@code events} with its partner's next sequence numbers
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

    static final String SETTINGS = "SELECT partner_id, url, secret_encrypted, secret_key_id FROM webhook_settings"
            + " WHERE partner_id = ANY (?) AND url IS NOT NULL";

    static final String INSERT_DELIVERIES = "INSERT INTO deliveries (id, partner_id, event_id, event, body,"
            + " status, attempt_count, round_attempts, next_attempt_at, lease_until, created_at, updated_at)"
            + " SELECT u.id, u.partner_id, u.event_id, u.event, u.body, 'retrying', 0, 0,"
            + "   CASE WHEN u.leased THEN now() + ?::interval ELSE now() END, CASE WHEN u.leased THEN now() + ?::interval END, ?, ?"
            + " FROM unnest(?::uuid[], ?::text[], ?::text[], ?::text[], ?::text[], ?::boolean[])"
            + "   WITH ORDINALITY AS u(id, partner_id, event_id, event, body, leased, n)"
            + " ORDER BY u.n"
            + " ON CONFLICT (event_id) DO NOTHING RETURNING id";

    static final String INSERT_DROPPED = "INSERT INTO dropped_events (event_id, partner_id, event, at)"
            + " SELECT u.event_id, u.partner_id, u.event, ? FROM unnest(?::text[], ?::text[], ?::text[])"
            + "   AS u(event_id, partner_id, event)"
            + " ON CONFLICT (event_id) DO NOTHING";

    /** A partner's URL and secret; {@code secret} empty when it could not be decrypted. */
    private record Settings(String url, Optional<String> secret) {
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

    private Result store(List<Envelopes.Webhook> webhooks, int skipped) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try {
                Map<String, Settings> settings = settings(connection, webhooks);
                Map<String, UUID> ids = new LinkedHashMap<>();
                List<EventRecorder.NewEvent> events = new ArrayList<>();
                for (Envelopes.Webhook webhook : webhooks) {
                    UUID id = UUID.randomUUID();
                    ids.put(webhook.eventId(), id);
                    events.add(new EventRecorder.NewEvent(id, webhook.partnerId(), webhook.eventId(), webhook.event(), webhook.body()));
                }
                // After the settings, right before the inserts and the commit: the partners' counter rows stay
                // locked from here until the commit (README, Events), as briefly as can be.
                Set<String> recorded = EventRecorder.record(connection, events, Timestamps.now());
                ids.keySet().retainAll(recorded);
                List<Envelopes.Webhook> deliver = new ArrayList<>();
                List<Envelopes.Webhook> drop = new ArrayList<>();
                for (Envelopes.Webhook webhook : webhooks) {
                    if (recorded.contains(webhook.eventId())) {
                        (settings.containsKey(webhook.partnerId()) ? deliver : drop).add(webhook);
                    }
                }
                Inserted inserted = insertDeliveries(connection, deliver, settings, ids);
                int dropped = insertDropped(connection, drop);
                connection.commit();
                return new Result(inserted.leased(), inserted.unleased(), dropped, skipped, ids);
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            }
        }
    }

    private Map<String, Settings> settings(Connection connection, List<Envelopes.Webhook> webhooks) throws SQLException {
        String[] partners = webhooks.stream().map(Envelopes.Webhook::partnerId).distinct().toArray(String[]::new);
        Map<String, Settings> found = new HashMap<>();
        try (PreparedStatement select = connection.prepareStatement(SETTINGS)) {
            select.setArray(1, connection.createArrayOf("text", partners));
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    String partnerId = rows.getString(1);
                    byte[] encrypted = rows.getBytes(3);
                    // A secret that cannot be decrypted fails that partner's deliveries alone (logged by
                    // the cipher); throwing here rolled the whole batch back and retried it every second,
                    // forever, so no partner received anything.
                    Optional<String> secret = encrypted == null ? Optional.empty()
                            : cipher.readable(partnerId, rows.getString(4), encrypted);
                    found.put(partnerId, new Settings(rows.getString(2), secret));
                }
            }
        }
        return found;
    }

    private record Inserted(List<Job> leased, int unleased) {
    }

    private Inserted insertDeliveries(Connection connection, List<Envelopes.Webhook> deliver,
                                      Map<String, Settings> settings, Map<String, UUID> eventIds) throws SQLException {
        if (deliver.isEmpty()) {
            return new Inserted(List.of(), 0);
        }
        int n = deliver.size();
        PartnerSlots.Room room = dispatcher.room(settings.keySet());
        Map<String, Integer> perPartner = new HashMap<>(room.perPartner());
        int total = room.total();
        Boolean[] leased = new Boolean[n];
        UUID[] ids = new UUID[n];
        String[] partners = new String[n];
        String[] envelopeIds = new String[n];
        String[] events = new String[n];
        String[] bodies = new String[n];
        Map<UUID, Job> jobs = new HashMap<>();
        for (int i = 0; i < n; i++) {
            Envelopes.Webhook webhook = deliver.get(i);
            Settings partner = settings.get(webhook.partnerId());
            ids[i] = eventIds.get(webhook.eventId());
            partners[i] = webhook.partnerId();
            envelopeIds[i] = webhook.eventId();
            events[i] = webhook.event();
            bodies[i] = webhook.body();
            int partnerRoom = perPartner.getOrDefault(partners[i], 0);
            leased[i] = partnerRoom > 0 && total > 0;
            if (leased[i]) {
                perPartner.put(partners[i], partnerRoom - 1);
                total--;
                jobs.put(ids[i], partner.secret().isPresent()
                        ? Job.unsigned(ids[i], partners[i], partner.url(), bodies[i], partner.secret().get(), 0)
                        : Job.unreadableSecret(ids[i], partners[i], partner.url(), bodies[i], 0));
            }
        }
        Timestamp now = Timestamp.from(Timestamps.now());
        List<Job> inserted = new ArrayList<>();
        int unleased = 0;
        try (PreparedStatement insert = connection.prepareStatement(INSERT_DELIVERIES)) {
            // A leased delivery is due when its lease ends (DeliveryStore.CLAIM: claims never walk past held rows).
            insert.setString(1, config.lease().toMillis() + " milliseconds");
            insert.setString(2, config.lease().toMillis() + " milliseconds");
            insert.setTimestamp(3, now);
            insert.setTimestamp(4, now);
            insert.setArray(5, connection.createArrayOf("uuid", ids));
            insert.setArray(6, connection.createArrayOf("text", partners));
            insert.setArray(7, connection.createArrayOf("text", envelopeIds));
            insert.setArray(8, connection.createArrayOf("text", events));
            insert.setArray(9, connection.createArrayOf("text", bodies));
            insert.setArray(10, connection.createArrayOf("boolean", leased));
            try (ResultSet rows = insert.executeQuery()) {
                while (rows.next()) {
                    Job job = jobs.get(rows.getObject(1, UUID.class));
                    if (job != null) {
                        inserted.add(job);
                    } else {
                        unleased++;
                    }
                }
            }
        }
        return new Inserted(inserted, unleased);
    }

    private int insertDropped(Connection connection, List<Envelopes.Webhook> drop) throws SQLException {
        if (drop.isEmpty()) {
            return 0;
        }
        try (PreparedStatement insert = connection.prepareStatement(INSERT_DROPPED)) {
            insert.setTimestamp(1, Timestamp.from(Timestamps.now()));
            insert.setArray(2, connection.createArrayOf("text", drop.stream().map(Envelopes.Webhook::eventId).toArray(String[]::new)));
            insert.setArray(3, connection.createArrayOf("text", drop.stream().map(Envelopes.Webhook::partnerId).toArray(String[]::new)));
            insert.setArray(4, connection.createArrayOf("text", drop.stream().map(Envelopes.Webhook::event).toArray(String[]::new)));
            return insert.executeUpdate();
        }
    }
}
