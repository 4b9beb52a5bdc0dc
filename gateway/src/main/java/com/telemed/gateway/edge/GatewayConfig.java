package com.telemed.gateway.edge;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;
import java.time.Duration;
import java.util.Optional;

/** The gateway's typed configuration; every value can come from the environment. */
@ConfigMapping(prefix = "gateway")
public interface GatewayConfig {

    /** How long a service may take to start answering before the caller gets 504. */
    @WithDefault("30s")
    Duration upstreamTimeout();

    /** Largest JSON (non-multipart) body, in bytes: 100 KB. */
    @WithDefault("102400")
    long jsonBodyLimit();

    /** Largest multipart body: a 10 MB attachment plus its multipart framing. */
    @WithDefault("11534336")
    long multipartBodyLimit();

    /**
     * How long a request body may go without a byte before the call is answered {@code 408
     * Request Timeout} and its forward dropped: a client that stalls holds nothing for longer.
     */
    @WithDefault("10s")
    Duration bodyStallTimeout();

    /** The pace below which a public download is cut ({@link DownloadPace}). */
    DownloadPaceConfig downloadPace();

    /**
     * {@code gateway.download-pace.*} ({@code GATEWAY_DOWNLOAD_PACE_*}): a download whose client
     * takes fewer than {@code min-bytes-per-second} × {@code window} bytes in a window while the
     * gateway has more for it is cut. 4 KiB/s (32 kbit/s) is slower than any mobile link a patient
     * has; a 10 MB file at that pace takes 43 minutes.
     */
    interface DownloadPaceConfig {

        @WithDefault("4096")
        long minBytesPerSecond();

        @WithDefault("30s")
        Duration window();
    }

    /**
     * The deployment's operator key ({@code OPS_API_KEY}); without one, {@code /ops} refuses every
     * call, and production refuses to start ({@link GatewayProductionSettings}).
     */
    @WithName("ops-api-key")
    Optional<String> opsApiKey();

    /**
     * {@code sandbox} or {@code production} ({@code SERVICE_ENVIRONMENT}). No default outside the
     * development profiles: production refuses to start without exactly one of the two
     * ({@link GatewayProductionSettings}); only exactly {@code sandbox} allows localhost embed origins.
     */
    Optional<String> environment();

    /**
     * Connections of the credential lookups' non-blocking client (one lookup per call, each a single
     * indexed read), which pipelines the lookups of concurrent calls on each connection.
     */
    @WithDefault("2")
    int credentialPoolSize();

    /** Limits on anonymous embed submissions ({@link SubmissionLimits}). */
    EmbedLimits embedLimits();

    /**
     * How many embed submissions ({@code POST} under {@code /v2/embed}) a partner's publishable key
     * and one client address of that partner may make per window ({@code GATEWAY_EMBED_LIMITS_*}).
     * A client address is the connection's peer, or, when the peer is one of the trusted proxies
     * ({@code GATEWAY_TRUSTED_PROXIES}, with {@code GATEWAY_PROXY_FORWARDING}; Quarkus'
     * {@code quarkus.http.proxy.*}), the first address of the {@code X-Forwarded-For} it set.
     */
    interface EmbedLimits {

        /** Submissions per window for one partner (its publishable key), all its visitors together. */
        @WithDefault("600")
        long perPartner();

        /** Submissions per window from one client address, counted per partner. */
        @WithDefault("20")
        long perAddress();

        /** The window both limits refill over (greedily: a token every window / limit). */
        @WithDefault("60s")
        Duration window();

        /** Client addresses tracked at once (the least recently seen are forgotten first). */
        @WithDefault("100000")
        long trackedAddresses();
    }
}
