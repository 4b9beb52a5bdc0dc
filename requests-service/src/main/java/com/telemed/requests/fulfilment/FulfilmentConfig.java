package com.telemed.requests.fulfilment;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** The transmission dispatcher's pace (requests-service README, "Fulfilment"). */
@ConfigMapping(prefix = "requests.fulfilment")
public interface FulfilmentConfig {

    /** How often each replica looks for due items besides being woken by an approval's commit. */
    @WithDefault("1s")
    Duration pollInterval();

    /** Items one replica claims at a time. */
    @WithDefault("50")
    int batchSize();

    /** Transmissions one replica runs at once. */
    @WithDefault("8")
    int parallelism();

    /**
     * How long a claim keeps other senders off an item: longer than the hold checks' and the
     * pharmacy's timeouts together, so only a replica that died mid-flight loses its claim.
     */
    @WithDefault("2m")
    Duration claimLease();

    /** When a held automatic or scheduled item is tried again. */
    @WithDefault("30s")
    Duration holdRetry();

    /** Off only in tests that drive transmissions by hand. */
    @WithDefault("true")
    boolean dispatcherEnabled();
}
