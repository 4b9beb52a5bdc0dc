package com.telemed.requests.appointment;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * One {@code appointment.reminder} to send (table {@code appointment_reminders}): an offset before
 * the start it was computed for. Rows exist only for offsets still ahead when the appointment was
 * booked or rescheduled; a reschedule, cancel or outcome deletes the unsent ones.
 */
@Entity
@Table(name = "appointment_reminders")
public class AppointmentReminder extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    @Column(name = "id", nullable = false, updatable = false)
    public Long id;

    @Column(name = "appointment_id", nullable = false, updatable = false)
    public UUID appointmentId;

    @Column(name = "offset_seconds", nullable = false, updatable = false)
    public long offsetSeconds;

    @Column(name = "start_time", nullable = false, updatable = false)
    public Instant startTime;

    @Column(name = "due_at", nullable = false, updatable = false)
    public Instant dueAt;

    @Column(name = "sent_at")
    public Instant sentAt;

    /** Replaces the appointment's unsent reminders by one per offset still ahead of {@code now}. */
    static void plan(Appointment appointment, List<Duration> offsets, Instant now) {
        forget(appointment.id);
        for (Duration offset : offsets) {
            Instant due = appointment.startTime.minus(offset);
            if (due.isAfter(now)) {
                AppointmentReminder reminder = new AppointmentReminder();
                reminder.appointmentId = appointment.id;
                reminder.offsetSeconds = offset.toSeconds();
                reminder.startTime = appointment.startTime;
                reminder.dueAt = due;
                reminder.persist();
            }
        }
    }

    /** Deletes the appointment's unsent reminders (rescheduled, cancelled, concluded). */
    static void forget(UUID appointmentId) {
        delete("appointmentId = ?1 and sentAt is null", appointmentId);
    }
}
