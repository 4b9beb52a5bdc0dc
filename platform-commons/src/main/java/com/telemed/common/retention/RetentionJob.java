package com.telemed.common.retention;

import com.telemed.common.concurrent.Ticker;
import com.telemed.common.error.FailureLog;
import io.agroal.api.AgroalDataSource;
import io.micrometer.core.instrument.Metrics;
import io.quarkus.arc.All;
import io.quarkus.arc.properties.IfBuildProperty;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Deletes, on every replica, what the service's {@link RetentionRule} beans no longer keep: a
 * {@link Ticker} thread runs the {@link Pruner} every {@code platform.retention.interval}
 * (job {@code retention} in {@code job_runs_total}/{@code job_failures_total}). Replicas share the
 * work through each table's advisory lock; a replica that dies mid-run loses only its batch's
 * transaction, and the next run goes on from what is left. A stop lets the batch in progress end.
 *
 * <p>Opt-in per service at build time ({@code platform.retention.enabled=true}), like the outbox.
 */
@ApplicationScoped
@IfBuildProperty(name = "platform.retention.enabled", stringValue = "true")
public class RetentionJob {

    private static final Logger LOG = Logger.getLogger(RetentionJob.class);

    private final Pruner pruner;
    private final FailureLog failures = new FailureLog(LOG, "Retention");
    private final Ticker ticker;

    public RetentionJob(AgroalDataSource dataSource, RetentionConfig config, Clock clock, @All List<RetentionRule> rules) {
        this.pruner = new Pruner(dataSource, rules, config.batchSize(), clock, Metrics.globalRegistry);
        this.ticker = new Ticker("retention", config.interval(), this::tick, failures::failing);
    }

    /** After Flyway has migrated (it runs before StartupEvent), so the tables exist. */
    void start(@Observes StartupEvent started) {
        if (!pruner.rules().isEmpty()) {
            ticker.start();
        }
    }

    void stop(@Observes ShutdownEvent stopping) throws InterruptedException {
        ticker.stop(Duration.ofSeconds(10));
    }

    /** One run now, as the schedule runs it (tests; the schedule's next run is unchanged). */
    public List<Pruner.Pruned> prune() throws SQLException {
        return pruner.pruneAll(() -> true);
    }

    private void tick() {
        try {
            pruner.pruneAll(ticker::running);
            failures.recovered("database");
        } catch (SQLException | RuntimeException e) {
            // SQL messages can quote row values; the class names are enough to diagnose.
            failures.failed("database", "Retention run failed", e);
        }
    }
}
