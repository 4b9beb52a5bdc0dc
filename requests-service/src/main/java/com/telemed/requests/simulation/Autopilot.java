package com.telemed.requests.simulation;

import com.telemed.common.concurrent.Ticker;
import com.telemed.common.error.ApiException;
import com.telemed.common.error.FailureLog;
import com.telemed.requests.deployment.DeploymentConfig;
import io.agroal.api.AgroalDataSource;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * Runs the sandbox autopilot's plans ({@code sandbox_autopilots}, V21; {@link AutopilotPlan}), on every
 * replica of a sandbox deployment. A run takes its steps in three parts, none holding a transaction
 * across another service's call:
 * <ol>
 *   <li><b>claim</b>: one statement claims due, unclaimed plans ({@code FOR UPDATE SKIP LOCKED}, then a
 *       claim id and a lease written on each row) and commits: of two replicas, each row goes to one;</li>
 *   <li><b>act</b>: the plan's next step through {@link Simulations#step}, exactly as a partner's
 *       simulate call takes it (its own short transactions, its remote calls outside them);</li>
 *   <li><b>record</b>: the next step, due now, written only while the claim is still this run's.</li>
 * </ol>
 * A replica that stops between act and record (a restart) leaves its claim; once the lease has passed,
 * another run claims the row and takes that step again, which the request's state then refuses
 * ({@code 409}): a refused step is recorded as skipped and the plan goes on, so a step is never taken
 * twice and none is lost. A request the partner cancelled meanwhile refuses each remaining step and its
 * plan ends. A step that fails for another reason (a neighbour unavailable) keeps the plan's place and
 * is tried again after {@code retry-after}.
 */
@ApplicationScoped
public class Autopilot {

    private static final Logger LOG = Logger.getLogger(Autopilot.class);

    // Native: FOR UPDATE SKIP LOCKED and UPDATE ... RETURNING (docs/architecture.md, "Persistence").
    private static final String CLAIM = """
            UPDATE sandbox_autopilots SET claim = ?, claimed_until = ?
            WHERE request_id IN (SELECT request_id FROM sandbox_autopilots
                                 WHERE finished_at IS NULL AND due_at <= ?
                                   AND (claimed_until IS NULL OR claimed_until <= ?)
                                 ORDER BY due_at
                                 LIMIT ?
                                 FOR UPDATE SKIP LOCKED)
            RETURNING request_id, partner_id, outcome, ship, next_step""";

    private static final String RECORD = """
            UPDATE sandbox_autopilots SET next_step = ?, due_at = ?, claim = NULL, claimed_until = NULL,
                   finished_at = CASE WHEN ? THEN ?::timestamptz END, last_result = ?, updated_at = ?
            WHERE request_id = ? AND claim = ?""";

    /** A plan claimed by a run. */
    record Claimed(UUID requestId, String partnerId, String outcome, boolean ship, int nextStep, UUID claim) {

        List<String> steps() {
            return AutopilotPlan.steps(outcome, ship);
        }
    }

    private final AgroalDataSource dataSource;
    private final Simulations simulations;
    private final SandboxConfig config;
    private final DeploymentConfig deployment;
    private final Clock clock;
    private final FailureLog failures = new FailureLog(LOG, "Sandbox autopilot");
    private final Ticker ticker;

    public Autopilot(AgroalDataSource dataSource, Simulations simulations, SandboxConfig config, DeploymentConfig deployment,
                     Clock clock) {
        this.dataSource = dataSource;
        this.simulations = simulations;
        this.config = config;
        this.deployment = deployment;
        this.clock = clock;
        this.ticker = new Ticker("sandbox-autopilot", config.autopilot().pollInterval(), this::tick, failures::failing);
    }

    void start(@Observes StartupEvent started) {
        if (deployment.sandbox() && config.autopilot().enabled()) {
            ticker.start();
        }
    }

    void stop(@Observes ShutdownEvent stopping) throws InterruptedException {
        ticker.stop(Duration.ofSeconds(10));
    }

    private void tick() {
        try {
            while (runDue() == config.autopilot().batchSize() && ticker.running()) {
                // A full batch: more may be due.
            }
            failures.recovered("database");
        } catch (RuntimeException e) {
            failures.failed("database", "Sandbox autopilot failed", e);
        }
    }

    /** Claims one batch of due plans and takes each one's next step; the number claimed. */
    public int runDue() {
        List<Claimed> claimed = claim(UUID.randomUUID());
        for (Claimed plan : claimed) {
            take(plan);
        }
        return claimed.size();
    }

    /** Act, then record. */
    private void take(Claimed plan) {
        List<String> steps = plan.steps();
        if (plan.nextStep() >= steps.size()) {
            record(plan, plan.nextStep(), true, "done", now());
            return;
        }
        String action = steps.get(plan.nextStep());
        String result;
        try {
            simulations.step(plan.partnerId(), plan.requestId().toString(), SimulationInput.of(action));
            result = action;
        } catch (ApiException refused) {
            if (refused.status() == 404) {
                // The request is gone (deleted while pending: its plan goes with it by cascade).
                record(plan, plan.nextStep(), true, "request gone", now());
                return;
            }
            if (refused.status() != 409) {
                retryLater(plan, action + " failed with " + refused.status());
                return;
            }
            // The state refused the step: taken already by a run that stopped before recording it, or the
            // request moved on (cancelled). Either way the plan goes on.
            result = action + " skipped (" + refused.status() + ")";
        } catch (RuntimeException e) {
            LOG.errorf("Sandbox autopilot step %s of request %s failed unexpectedly (%s); tried again later",
                    action, plan.requestId(), e.getClass().getName());
            retryLater(plan, action + " failed");
            return;
        }
        int next = plan.nextStep() + 1;
        record(plan, next, next >= steps.size(), result, now());
    }

    private void retryLater(Claimed plan, String result) {
        record(plan, plan.nextStep(), false, result, now().plus(config.autopilot().retryAfter()));
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MILLIS);
    }

    private List<Claimed> claim(UUID claim) {
        Instant now = now();
        try (Connection connection = dataSource.getConnection();
             PreparedStatement statement = connection.prepareStatement(CLAIM)) {
            statement.setObject(1, claim);
            statement.setObject(2, utc(now.plus(config.autopilot().lease())));
            statement.setObject(3, utc(now));
            statement.setObject(4, utc(now));
            statement.setInt(5, config.autopilot().batchSize());
            List<Claimed> claimed = new ArrayList<>();
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    claimed.add(new Claimed(rows.getObject(1, UUID.class), rows.getString(2), rows.getString(3), rows.getBoolean(4),
                            rows.getInt(5), claim));
                }
            }
            return claimed;
        } catch (SQLException e) {
            throw new IllegalStateException("claiming due autopilot steps failed (SQL state " + e.getSQLState() + ")", e);
        }
    }

    /** The plan's place after a step, due at {@code due}; only while the claim is still this run's. */
    private void record(Claimed plan, int next, boolean finished, String result, Instant due) {
        Instant now = now();
        try (Connection connection = dataSource.getConnection();
             PreparedStatement statement = connection.prepareStatement(RECORD)) {
            statement.setInt(1, next);
            statement.setObject(2, utc(finished ? now : due));
            statement.setBoolean(3, finished);
            statement.setObject(4, utc(now));
            statement.setString(5, result);
            statement.setObject(6, utc(now));
            statement.setObject(7, plan.requestId());
            statement.setObject(8, plan.claim());
            statement.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("recording an autopilot step failed (SQL state " + e.getSQLState() + ")", e);
        }
    }

    private static OffsetDateTime utc(Instant instant) {
        return OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
    }
}
