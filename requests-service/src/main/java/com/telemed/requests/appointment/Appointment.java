package com.telemed.requests.appointment;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;

/**
 * An appointment booked with a consultation's booking link (table {@code appointments}): one per
 * link. Holds the patient's name and email as last read from members-service, for the reminders:
 * never log it.
 */
@Entity
@Table(name = "appointments")
public class Appointment extends PanacheEntityBase {

    public static final String BOOKED = "booked";
    public static final String CANCELLED = "cancelled";
    public static final String HELD = "held";
    public static final String NO_SHOW = "no_show";

    @Id
    @Column(name = "id", nullable = false, updatable = false)
    public UUID id;

    @Column(name = "partner_id", nullable = false, updatable = false)
    public String partnerId;

    @Column(name = "request_id", nullable = false, updatable = false)
    public UUID requestId;

    @Column(name = "item_id", updatable = false)
    public UUID itemId;

    @Column(name = "consultation_id", nullable = false, updatable = false)
    public UUID consultationId;

    @Column(name = "member_id", nullable = false, updatable = false)
    public UUID memberId;

    @Column(name = "prescriber_id", nullable = false, updatable = false)
    public UUID prescriberId;

    @Column(name = "status", nullable = false)
    public String status;

    @Column(name = "start_time", nullable = false)
    public Instant startTime;

    @Column(name = "end_time", nullable = false)
    public Instant endTime;

    @Column(name = "duration_minutes", nullable = false)
    public int durationMinutes;

    @Column(name = "timezone", nullable = false)
    public String timezone;

    @Column(name = "cancelled_by")
    public String cancelledBy;

    @Column(name = "cancellation_reason")
    public String cancellationReason;

    @Column(name = "patient_name")
    public String patientName;

    @Column(name = "patient_email")
    public String patientEmail;

    @Column(name = "prescriber_name")
    public String prescriberName;

    @Column(name = "created_at", nullable = false, updatable = false)
    public Instant createdAt;

    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;

    /** Start (to the millisecond, as every timestamp the platform shows), duration and zone; the end follows from them. */
    void schedule(Instant start, int minutes, String zone, Instant at) {
        startTime = start.truncatedTo(ChronoUnit.MILLIS);
        durationMinutes = minutes;
        endTime = startTime.plusSeconds(60L * minutes);
        timezone = zone;
        updatedAt = at;
    }
}
