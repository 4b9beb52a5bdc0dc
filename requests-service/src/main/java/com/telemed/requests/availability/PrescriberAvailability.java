package com.telemed.requests.availability;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.UUID;

/** A prescriber's availability (table {@code prescriber_availability}): zone and slot length; the hours are {@link WeeklyHours}. */
@Entity
@Table(name = "prescriber_availability")
public class PrescriberAvailability extends PanacheEntityBase {

    @Id
    @Column(name = "prescriber_id", nullable = false, updatable = false)
    public UUID prescriberId;

    @Column(name = "timezone", nullable = false)
    public String timezone;

    @Column(name = "slot_minutes", nullable = false)
    public int slotMinutes;

    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;
}
