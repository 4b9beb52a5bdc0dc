package com.telemed.webhook.delivery;

import com.telemed.common.audit.AuditTrail;
import com.telemed.common.error.ApiException;
import com.telemed.common.json.Timestamps;
import com.telemed.webhook.WebhookConfig;
import com.telemed.webhook.settings.SettingsService;
import com.telemed.webhook.settings.UnreadableSecret;
import com.telemed.webhook.settings.WebhookSettings;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.panache.common.Page;
import io.quarkus.panache.common.Sort;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/** The operator's view of a partner's deliveries, and redelivery. */
@ApplicationScoped
public class DeliveryLog {

    public static final String NOT_FOUND = "Delivery not found";
    public static final String STILL_RETRYING = "Delivery is still being attempted";
    public static final String NO_URL = "Webhook URL not set";
    public static final String NO_URL_CONFIGURED = "No webhook URL configured";

    /** How much longer than {@code webhook.attempt-timeout} a redelivery waits for an attempt in flight to be recorded. */
    static final Duration REDELIVERY_WAIT_MARGIN = Duration.ofSeconds(5);

    /** How often a redelivery waiting for an attempt in flight looks again. */
    private static final Duration REDELIVERY_POLL = Duration.ofMillis(50);

    private final EntityManager entityManager;
    private final SettingsService settings;
    private final Dispatcher dispatcher;
    private final WebhookConfig config;
    private final AuditTrail audit;

    public DeliveryLog(EntityManager entityManager, SettingsService settings,
                       Dispatcher dispatcher, WebhookConfig config, AuditTrail audit) {
        this.entityManager = entityManager;
        this.settings = settings;
        this.dispatcher = dispatcher;
        this.config = config;
        this.audit = audit;
    }

    /** Newest first, at most {@code limit}, optionally one event name. */
    public DeliveryViews.Log list(String partnerId, String event, int limit) {
        Sort order = Sort.descending("createdAt", "seq");
        List<Delivery> deliveries = (event == null
                ? Delivery.<Delivery>find("partnerId = ?1", order, partnerId)
                : Delivery.<Delivery>find("partnerId = ?1 and event = ?2", order, partnerId, event))
                .page(Page.ofSize(limit)).list();
        return new DeliveryViews.Log(views(deliveries));
    }

    /**
     * Sends the same body again, same {@code X-Webhook-Id}, as a new round of up to 3 attempts,
     * signed afresh with the partner's current secret: the old round's timestamp and signature are
     * cleared, and the round's first attempt signs it (its own start as the timestamp), as a new
     * delivery's first attempt does. The delivery is leased to this replica in the same transaction
     * and handed to the dispatcher after commit. The answer shows the delivery as committed
     * ({@code retrying}, the attempts so far): read after the hand-off, it could already show the
     * new round's first attempt recorded (seen as {@code delivered} on a loaded machine). The audit
     * entry ({@code delivery.redeliver}) commits with the new round, before the hand-off.
     */
    public DeliveryViews.Redelivered redeliver(String partnerId, Optional<UUID> deliveryId) {
        Redelivery redelivery = QuarkusTransaction.requiringNew().call(() -> {
            Delivery delivery = deliveryId
                    .map(id -> entityManager.find(Delivery.class, id, LockModeType.PESSIMISTIC_WRITE))
                    .filter(found -> found.partnerId.equals(partnerId))
                    .orElseThrow(() -> ApiException.notFound(NOT_FOUND));
            if (Delivery.RETRYING.equals(delivery.status)) {
                throw ApiException.badRequest(STILL_RETRYING);
            }
            WebhookSettings partner = entityManager.find(WebhookSettings.class, partnerId);
            if (partner == null || partner.url == null) {
                throw ApiException.badRequest(NO_URL);
            }
            audit.record("delivery.redeliver", "delivery", delivery.id.toString(), partnerId);
            Job job = newRound(delivery, partner, ApiException.badRequest(NO_URL));
            return new Redelivery(job, views(List.of(delivery)).get(0));
        });
        dispatcher.handOff(List.of(redelivery.job()));
        return new DeliveryViews.Redelivered(redelivery.view());
    }

    private record Redelivery(Job job, DeliveryViews.View view) {
    }

    /**
     * The partner's own redelivery of one of its events ({@code POST /v1/events/:id/redeliver},
     * partner-extensions.md, Events: sent again, signed with a fresh timestamp, same {@code X-Webhook-Id}):
     * the ops path's new round of the event's delivery (signed afresh by its first attempt), or, for an
     * event recorded while no URL was set, its first delivery, made now under the event's id.
     * {@code 409 No webhook URL configured} without a URL. Not audited: the audit trail records /ops
     * changes (README, Audit).
     *
     * <p>A delivery still being attempted ({@code retrying}), by its lease (the database's clock):
     * <ul>
     * <li>not leased (waiting for its next retry, due or not): the new round replaces the old one's
     * remaining retries, due now and leased to this replica in the same transaction. The claim loop skips
     * the row while it is locked here ({@code FOR UPDATE SKIP LOCKED}) and finds it leased after, so the
     * old retry is never sent beside it;</li>
     * <li>leased and not yet signed: a round's first attempt is queued or under way and signs with its
     * own start, a fresh timestamp already (e.g. a concurrent redelivery's round): nothing more;</li>
     * <li>leased and signed: a retry of an older round, with that round's timestamp, is queued or in
     * flight. The call waits until its attempt is recorded (the lease given back), at most
     * {@code webhook.attempt-timeout} and {@link #REDELIVERY_WAIT_MARGIN}, then decides again, so the new
     * round follows that attempt rather than racing it. Longer than that, its replica is stuck or gone:
     * the round is left to its lease and retries (accepted all the same).</li>
     * </ul>
     * The event row is locked first, so two redeliveries of one event take turns.
     */
    public void redeliverEvent(String partnerId, UUID eventId, String envelopeId, String event, String body) {
        long deadline = System.nanoTime() + config.attemptTimeout().plus(REDELIVERY_WAIT_MARGIN).toNanos();
        while (true) {
            EventRedelivery step = QuarkusTransaction.requiringNew().call(() -> eventRedelivery(partnerId, eventId, envelopeId, event, body));
            if (step.round().isPresent()) {
                dispatcher.handOff(List.of(step.round().get()));
                return;
            }
            if (!step.attemptInFlight() || System.nanoTime() - deadline > 0) {
                return;
            }
            try {
                Thread.sleep(REDELIVERY_POLL.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /**
     * One try of {@link #redeliverEvent}, in its transaction: the new round to hand off, or none, with whether an
     * attempt of an older round is in flight ({@code attemptInFlight}: wait for it and try again).
     */
    private record EventRedelivery(Optional<Job> round, boolean attemptInFlight) {
    }

    private EventRedelivery eventRedelivery(String partnerId, UUID eventId, String envelopeId, String event, String body) {
        entityManager.createNativeQuery("SELECT id FROM events WHERE id = ?1 AND partner_id = ?2 FOR UPDATE")
                .setParameter(1, eventId).setParameter(2, partnerId).getResultList();
        WebhookSettings partner = entityManager.find(WebhookSettings.class, partnerId);
        if (partner == null || partner.url == null) {
            throw new ApiException(409, NO_URL_CONFIGURED);
        }
        Delivery delivery = entityManager.find(Delivery.class, eventId, LockModeType.PESSIMISTIC_WRITE);
        if (delivery != null && Delivery.RETRYING.equals(delivery.status)) {
            boolean leased = (Boolean) entityManager.createNativeQuery(
                            "SELECT coalesce(lease_until > now(), false) FROM deliveries WHERE id = ?1")
                    .setParameter(1, eventId).getSingleResult();
            if (leased) {
                return new EventRedelivery(Optional.empty(), delivery.signature != null);
            }
        }
        boolean first = delivery == null;
        if (first) {
            delivery = new Delivery();
            delivery.id = eventId;
            delivery.partnerId = partnerId;
            delivery.eventId = envelopeId;
            delivery.event = event;
            delivery.body = body;
            delivery.createdAt = Timestamps.now();
            delivery.attemptCount = 0;
        }
        Job round = newRound(delivery, partner, new ApiException(409, NO_URL_CONFIGURED));
        if (first) {
            entityManager.persist(delivery);
        }
        return new EventRedelivery(Optional.of(round), false);
    }

    /**
     * Starts a new round of up to 3 attempts of {@code delivery} (locked or new, in the caller's
     * transaction), to be handed to the dispatcher after commit: unsigned, leased to this replica.
     */
    private Job newRound(Delivery delivery, WebhookSettings partner, ApiException noSecret) {
        Optional<String> secret;
        try {
            secret = Optional.of(settings.secret(partner).orElseThrow(() -> noSecret));
        } catch (UnreadableSecret unreadable) {
            // Logged by the settings; the round goes ahead and its attempts fail as every
            // delivery of this partner does, until a replica with the key or a rotation delivers it.
            secret = Optional.empty();
        }
        Instant now = Timestamps.now();
        delivery.signedAt = null;
        delivery.signature = null;
        delivery.status = Delivery.RETRYING;
        delivery.roundAttempts = 0;
        delivery.nextAttemptAt = now;
        delivery.leaseUntil = now.plus(config.lease());
        delivery.updatedAt = now;
        return secret.isPresent()
                ? Job.unsigned(delivery.id, partner.partnerId, partner.url, delivery.body, secret.get(), 0)
                : Job.unreadableSecret(delivery.id, partner.partnerId, partner.url, delivery.body, 0);
    }

    private List<DeliveryViews.View> views(List<Delivery> deliveries) {
        if (deliveries.isEmpty()) {
            return List.of();
        }
        Map<UUID, List<DeliveryViews.Attempt>> attempts = new HashMap<>();
        DeliveryAttempt.<DeliveryAttempt>list("deliveryId in ?1 order by id",
                        deliveries.stream().map(delivery -> delivery.id).toList())
                .forEach(attempt -> attempts.computeIfAbsent(attempt.deliveryId, id -> new ArrayList<>())
                        .add(DeliveryViews.Attempt.of(attempt)));
        List<DeliveryViews.View> views = new ArrayList<>();
        for (Delivery delivery : deliveries) {
            views.add(new DeliveryViews.View(delivery.id, delivery.event, delivery.status,
                    attempts.getOrDefault(delivery.id, List.of()), delivery.body, delivery.createdAt));
        }
        return views;
    }

}
