package com.telemed.common.outbox;

import io.agroal.api.AgroalDataSource;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.arc.properties.IfBuildProperty;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.function.LongSupplier;
import org.jboss.logging.Logger;

/**
 * {@code outbox_backlog}: rows not yet on Kafka; {@code outbox_oldest_age_seconds}: how long the
 * oldest of them has waited (0 when there is none). A relay that keeps up shows both near 0; a
 * Kafka outage shows both growing. Read by one cheap query (the table holds only unpublished rows)
 * at most once per {@link #REFRESH}, whatever the number of scrapes; when the database does not
 * answer, the gauges are NaN until it does.
 */
@ApplicationScoped
@Startup // the gauges exist from the start, before the first scrape
@IfBuildProperty(name = "platform.outbox.enabled", stringValue = "true")
public class OutboxMetrics {

    static final Duration REFRESH = Duration.ofSeconds(5);

    private static final Logger LOG = Logger.getLogger(OutboxMetrics.class);
    private static final String BACKLOG = "select count(*), coalesce(extract(epoch from now() - min(created_at)), 0)"
            + " from outbox_events";
    private static final int QUERY_TIMEOUT_SECONDS = 2;

    private final AgroalDataSource dataSource;
    private final LongSupplier clock;
    private long readAt;
    private boolean read;
    private double backlog = Double.NaN;
    private double oldestAgeSeconds = Double.NaN;

    @Inject
    public OutboxMetrics(AgroalDataSource dataSource, MeterRegistry registry) {
        this(dataSource, registry, System::nanoTime);
    }

    OutboxMetrics(AgroalDataSource dataSource, MeterRegistry registry, LongSupplier clock) {
        this.dataSource = dataSource;
        this.clock = clock;
        Gauge.builder("outbox.backlog", this, metrics -> metrics.current().backlog).strongReference(true)
                .description("Outbox rows not yet published to Kafka").register(registry);
        Gauge.builder("outbox.oldest.age.seconds", this, metrics -> metrics.current().oldestAgeSeconds).strongReference(true)
                .description("Seconds the oldest unpublished outbox row has waited (0 when none)").register(registry);
    }

    /** The figures, read again when older than {@link #REFRESH}. */
    synchronized OutboxMetrics current() {
        long now = clock.getAsLong();
        if (read && now - readAt < REFRESH.toNanos()) {
            return this;
        }
        read = true;
        readAt = now;
        try (Connection connection = dataSource.getConnection();
             PreparedStatement query = connection.prepareStatement(BACKLOG)) {
            query.setQueryTimeout(QUERY_TIMEOUT_SECONDS);
            try (ResultSet result = query.executeQuery()) {
                result.next();
                backlog = result.getLong(1);
                oldestAgeSeconds = Math.max(0, result.getDouble(2));
            }
        } catch (SQLException e) {
            // SQL messages can quote values; the state is enough. NaN: unknown, not "no backlog".
            LOG.debugf("Outbox metrics cannot read the table (SQL state %s)", e.getSQLState());
            backlog = Double.NaN;
            oldestAgeSeconds = Double.NaN;
        }
        return this;
    }
}
