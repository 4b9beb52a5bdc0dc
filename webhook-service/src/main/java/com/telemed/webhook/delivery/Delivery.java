package com.telemed.webhook.delivery;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.UUID;

/**
 * One event for one partner (table {@code deliveries}, Flyway V2; signature nullable since V3). Written by the consumer and
 * the dispatcher through {@link DeliveryStore} (JDBC, batched); read here for the delivery log.
 * {@code body} is the partner payload and can name patients: never log it.
 */
@Entity
@Table(name = "deliveries")
public class Delivery extends PanacheEntityBase {

    public static final String DELIVERED = "delivered";
    public static final String RETRYING = "retrying";
    public static final String FAILED = "failed";

    @Id
    @Column(name = "id", nullable = false, updatable = false)
    public UUID id;

    @Column(name = "seq", nullable = false, insertable = false, updatable = false)
    public long seq;

    @Column(name = "partner_id", nullable = false, updatable = false)
    public String partnerId;

    @Column(name = "event_id", nullable = false, updatable = false)
    public String eventId;

    @Column(name = "event", nullable = false, updatable = false)
    public String event;

    @Column(name = "body", nullable = false, updatable = false)
    public String body;

    /** X-Webhook-Timestamp; null until the first attempt (of the current round) signs the delivery. */
    @Column(name = "signed_at")
    public String signedAt;

    /** X-Webhook-Signature, made with {@link #signedAt}; null exactly when it is. */
    @Column(name = "signature")
    public String signature;

    @Column(name = "status", nullable = false)
    public String status;

    @Column(name = "attempt_count", nullable = false)
    public int attemptCount;

    @Column(name = "round_attempts", nullable = false)
    public int roundAttempts;

    @Column(name = "next_attempt_at")
    public Instant nextAttemptAt;

    @Column(name = "lease_until")
    public Instant leaseUntil;

    @Column(name = "created_at", nullable = false, updatable = false)
    public Instant createdAt;

    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;

    @Override
    public String toString() {
        return "Delivery[" + id + "]";
    }
}
