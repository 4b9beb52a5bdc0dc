package com.telemed.common.audit;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** Runtime settings of the audit trail ({@code platform.audit.enabled} itself is read at build time). */
@ConfigMapping(prefix = "platform.audit")
public interface AuditConfig {

    /**
     * Build-time switch ({@code platform.audit.enabled=true} in an auditing service's
     * application.properties): {@link AuditTrail}, {@link AuditEntries}, the retention rule of
     * {@code audit_entries} and, where the service checks service proofs, {@code GET /internal/audit}.
     * Mapped here only so the key is known under this prefix.
     */
    @WithDefault("false")
    boolean enabled();

    /**
     * How long an entry is kept ({@code PLATFORM_AUDIT_RETENTION}): six years (HIPAA, 45 CFR
     * 164.316(b)(2)), two leap days included. platform-commons' retention job deletes older entries in
     * batches (the service must also set {@code platform.retention.enabled=true}).
     */
    @WithDefault("2192d")
    Duration retention();
}
