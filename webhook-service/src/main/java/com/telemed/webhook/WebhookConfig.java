package com.telemed.webhook;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** Typed configuration of webhook-service (prefix {@code webhook}); see README, Configuration. */
@ConfigMapping(prefix = "webhook")
public interface WebhookConfig {

    /**
     * {@code sandbox} or {@code production} ({@code SERVICE_ENVIRONMENT}); production applies the
     * SSRF rules. No default outside the development profiles: production refuses to start without
     * exactly one of the two (platform-commons' {@code ProductionSettings}), and anything but
     * {@code sandbox} applies the rules ({@link #production()}).
     */
    Optional<String> environment();

    /**
     * The AES-256-GCM keys webhook secrets are encrypted with at rest ({@code WEBHOOK_SECRET_KEYS}):
     * {@code id:base64-of-32-bytes}, comma-separated, newest first. The first encrypts; every one
     * decrypts the secrets stored with its id ({@code settings.SecretKeys}).
     */
    Optional<List<String>> secretKeys();

    /**
     * The single key of the releases before key ids ({@code WEBHOOK_SECRET_ENCRYPTION_KEY}), still
     * accepted: it is the key with id {@code legacy}, the id of every secret stored before them
     * (migration V4), placed after the keys of {@link #secretKeys()} (alone, it also encrypts).
     */
    Optional<String> secretEncryptionKey();

    /**
     * Waits between attempts: after the first failure, after the second, ... The number of
     * attempts is one more than the number of waits (contract: 2s,4s, so 3 attempts), as
     * {@code delivery.RetryPolicy} decides. Only tests change it.
     */
    @WithDefault("2s,4s")
    List<Duration> retryWaits();

    /** One attempt, from connecting to the end of the response. */
    @WithDefault("10s")
    Duration attemptTimeout();

    /** Attempts in flight to one partner at once (per replica). */
    @WithDefault("8")
    int maxInFlightPerPartner();

    /** Attempts in flight at once, all partners (per replica). */
    @WithDefault("256")
    int maxInFlight();

    /**
     * Claimed deliveries of one partner waiting in memory for a free slot (their leases are
     * renewed while they wait). A partner with this many waiting is left out of claims.
     */
    @WithDefault("200")
    int maxQueuedPerPartner();

    /** Claimed deliveries waiting in memory, all partners. */
    @WithDefault("5000")
    int maxQueued();

    /** Safety-net poll for due deliveries (retries, other replicas' expired leases). */
    @WithDefault("250ms")
    Duration pollInterval();

    /** Deliveries claimed by one poll at most. */
    @WithDefault("200")
    int claimBatch();

    /**
     * How long a claim holds a delivery. Must exceed DNS + attempt timeout; a crashed replica's
     * deliveries are attempted again by others once it passes.
     */
    @WithDefault("60s")
    Duration lease();

    /** How often the Kafka broker is probed for the {@code kafka_broker_reachable} gauge. */
    @WithDefault("10s")
    Duration kafkaProbeInterval();

    /**
     * How long a partner's event record is kept ({@code WEBHOOK_EVENT_RETENTION}): deliveries with
     * their attempts (the delivery log) and dropped events, by when they were stored. The contract
     * keeps 30 days (partner-extensions.md, Events); older rows are deleted by the retention job
     * ({@code retention.EventRecordRetention}). An event id is the intake's deduplication key while
     * its row lasts, so this must outlast any redelivery of the topics (their retention plus the
     * consumer's longest outage).
     */
    @WithDefault("30d")
    Duration eventRetention();

    /** Fails closed: only exactly {@code sandbox} turns the SSRF rules off. */
    default boolean production() {
        return !"sandbox".equals(environment().orElse(null));
    }
}
