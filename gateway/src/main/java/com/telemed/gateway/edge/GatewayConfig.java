package com.telemed.gateway.edge;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;
import java.net.URI;
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

    /** Connections of the credential lookups' non-blocking pool (one lookup per call, each a single indexed read). */
    @WithDefault("8")
    int credentialPoolSize();

    /** Where each service listens ({@code SERVICE_URLS_<NAME>}). */
    ServiceUrls serviceUrls();

    interface ServiceUrls {
        URI requests();

        URI members();

        URI catalogue();

        URI messaging();

        URI billing();

        URI webhook();
    }

    default URI urlOf(Upstream upstream) {
        return switch (upstream) {
            case REQUESTS -> serviceUrls().requests();
            case MEMBERS -> serviceUrls().members();
            case CATALOGUE -> serviceUrls().catalogue();
            case MESSAGING -> serviceUrls().messaging();
            case BILLING -> serviceUrls().billing();
            case WEBHOOK -> serviceUrls().webhook();
            case GATEWAY -> throw new IllegalArgumentException("the gateway serves its own routes");
        };
    }
}
