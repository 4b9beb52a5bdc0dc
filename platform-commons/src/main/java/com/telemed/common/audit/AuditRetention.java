package com.telemed.common.audit;

import com.telemed.common.retention.RetentionRule;
import io.quarkus.arc.properties.IfBuildProperty;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * Audit entries are kept {@code platform.audit.retention} (six years, HIPAA) and then deleted by
 * platform-commons' retention job, in batches, oldest first (docs/architecture.md, "Retention"); the
 * service must set {@code platform.retention.enabled=true} for the job to run. Not partitions: one
 * rule for every auditing service, on the index the reads use.
 */
@ApplicationScoped
@IfBuildProperty(name = "platform.audit.enabled", stringValue = "true")
public class AuditRetention {

    public static final String TABLE = "audit_entries";

    @Produces
    @Singleton
    RetentionRule auditEntries(AuditConfig config) {
        return RetentionRule.of(TABLE, "id", "at", config.retention());
    }
}
