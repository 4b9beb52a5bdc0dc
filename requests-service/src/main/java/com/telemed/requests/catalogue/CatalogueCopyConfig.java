package com.telemed.requests.catalogue;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** The catalogue copy's sync ({@link CatalogueCopySync}). */
@ConfigMapping(prefix = "requests.catalogue-copy")
public interface CatalogueCopyConfig {

    /**
     * Whether each start syncs the copy from catalogue-service's snapshot (retrying until it succeeds).
     * Off only in requests-service's own tests, whose fake catalogue-service counts every call: they sync
     * when they mean to ({@link CatalogueCopySync#syncNow}).
     */
    @WithDefault("true")
    boolean syncOnStart();

    /** Pause between attempts while the sync fails. */
    @WithDefault("5s")
    Duration syncRetry();
}
