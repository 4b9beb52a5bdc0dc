package com.telemed.common.retention;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/**
 * Runtime settings of the retention job ({@code platform.retention.enabled} itself is read at build
 * time). How long each table keeps its rows is the owning service's setting (its {@link RetentionRule}s).
 */
@ConfigMapping(prefix = "platform.retention")
public interface RetentionConfig {

    /** Build-time switch; mapped here only so the key is known under this prefix. */
    @WithDefault("false")
    boolean enabled();

    /**
     * Pause between a replica's runs; the first run comes one interval after the start. Every
     * replica runs; a table one replica is pruning is skipped by the others.
     */
    @WithDefault("10m")
    Duration interval();

    /**
     * Rows deleted per transaction: bounds how long one delete holds its locks and its transaction.
     * A run deletes batch after batch until no old row is left.
     */
    @WithDefault("1000")
    int batchSize();
}
