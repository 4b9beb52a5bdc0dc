package com.telemed.webhook.delivery;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.UUID;

/** One POST of a delivery (table {@code delivery_attempts}); written by {@link DeliveryStore}. */
@Entity
@Table(name = "delivery_attempts")
public class DeliveryAttempt extends PanacheEntityBase {

    @Id
    @Column(name = "id", nullable = false, updatable = false)
    public long id;

    @Column(name = "delivery_id", nullable = false, updatable = false)
    public UUID deliveryId;

    @Column(name = "at", nullable = false, updatable = false)
    public Instant at;

    /** Null when no response arrived (connection error, timeout, refused address). */
    @Column(name = "http_status", updatable = false)
    public Integer httpStatus;

    /** Null for an answered attempt; a fixed description otherwise (never an exception message). */
    @Column(name = "error", updatable = false)
    public String error;

    @Column(name = "duration_ms", nullable = false, updatable = false)
    public int durationMs;
}
