package com.telemed.requests.appointment;

import com.telemed.common.concurrent.Ticker;
import com.telemed.common.error.FailureLog;
import com.telemed.requests.request.Request;
import io.quarkus.hibernate.orm.panache.Panache;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Sends {@code appointment.reminder} when a reminder comes due, on every replica: each tick claims
 * due, unsent reminders with {@code FOR UPDATE SKIP LOCKED} and, in that same transaction, writes
 * each one's event to the outbox and stamps it sent. Two replicas never take one row, and a
 * reminder is sent exactly when its transaction commits: once. Reminders of a rescheduled,
 * cancelled or concluded appointment were deleted with the change, so only the current start's fire.
 * Time is the injected {@link Clock}'s, so tests move it instead of waiting.
 */
@ApplicationScoped
public class ReminderJob {

    private static final Logger LOG = Logger.getLogger(ReminderJob.class);

    private final AppointmentEvents events;
    private final AppointmentConfig config;
    private final Clock clock;
    private final FailureLog failures = new FailureLog(LOG, "Appointment reminders");
    private final Ticker ticker;

    public ReminderJob(AppointmentEvents events, AppointmentConfig config, Clock clock) {
        this.events = events;
        this.config = config;
        this.clock = clock;
        this.ticker = new Ticker("appointment-reminders", config.reminderPollInterval(), this::tick, failures::failing);
    }

    void start(@Observes StartupEvent started) {
        ticker.start();
    }

    void stop(@Observes ShutdownEvent stopping) throws InterruptedException {
        ticker.stop(Duration.ofSeconds(10));
    }

    private void tick() {
        try {
            while (sendDue() == config.reminderBatchSize() && ticker.running()) {
                // A full batch: more may be due.
            }
            failures.recovered("database");
        } catch (RuntimeException e) {
            failures.failed("database", "Sending appointment reminders failed", e);
        }
    }

    /** One batch in one transaction; the number of reminders sent. */
    int sendDue() {
        return QuarkusTransaction.requiringNew().call(() -> {
            Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
            @SuppressWarnings("unchecked")
            List<AppointmentReminder> due = Panache.getEntityManager().createNativeQuery("""
                            SELECT * FROM appointment_reminders
                            WHERE sent_at IS NULL AND due_at <= :now
                            ORDER BY due_at
                            LIMIT :limit
                            FOR UPDATE SKIP LOCKED""", AppointmentReminder.class)
                    .setParameter("now", now)
                    .setParameter("limit", config.reminderBatchSize())
                    .getResultList();
            for (AppointmentReminder reminder : due) {
                reminder.sentAt = now;
                Appointment appointment = Appointment.findById(reminder.appointmentId);
                if (!Appointment.BOOKED.equals(appointment.status) || !appointment.startTime.equals(reminder.startTime)) {
                    continue;
                }
                Request request = Request.findById(appointment.requestId);
                events.appointment(AppointmentEvents.APPOINTMENT_REMINDER, request, appointment.itemId,
                        AppointmentPayloads.reminder(appointment), appointment.prescriberId, now);
            }
            return due.size();
        });
    }
}
