package com.telemed.common.outbox;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** Runtime settings of the outbox relay ({@code platform.outbox.enabled} itself is read at build time). */
@ConfigMapping(prefix = "platform.outbox")
public interface OutboxConfig {

    /** Build-time switch; mapped here only so the key is known under this prefix. */
    @WithDefault("false")
    boolean enabled();

    /** Pause between a replica's looks for unpublished rows (a tick drains full batches back to back). */
    @WithDefault("200ms")
    Duration pollInterval();

    /** Rows sent per relay transaction: bounds how long the advisory lock and the transaction are held. */
    @WithDefault("100")
    int batchSize();
}
