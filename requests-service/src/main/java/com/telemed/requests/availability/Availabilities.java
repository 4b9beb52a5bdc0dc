package com.telemed.requests.availability;

import com.telemed.common.audit.AuditTrail;
import com.telemed.common.error.ApiException;
import com.telemed.common.id.Ids;
import com.telemed.requests.prescriber.Prescriber;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Prescribers' weekly hours and the slots they give (people-and-pages.md, "Availability and slots"):
 * set and read the hours, and the open slots of a range, the hours less the time the prescriber's
 * appointments take ({@link BookedTimes}) and less the past. Time is the injected {@link Clock}'s.
 */
@ApplicationScoped
public class Availabilities {

    public static final String PRESCRIBER_NOT_FOUND = "Prescriber not found";
    static final String NOT_SET = "Availability not set";

    private final BookedTimes booked;
    private final Clock clock;
    private final AuditTrail audit;

    public Availabilities(BookedTimes booked, Clock clock, AuditTrail audit) {
        this.booked = booked;
        this.clock = clock;
        this.audit = audit;
    }

    /**
     * {@code PUT}: replaces the prescriber's hours as a whole. Under the prescriber's row lock, so two
     * settings at once are applied one after the other (the last to commit stays), never mixed.
     */
    public AvailabilityViews.Envelope put(String prescriberId, AvailabilityInput input) {
        UUID id = Ids.uuid(prescriberId).orElseThrow(() -> ApiException.notFound(PRESCRIBER_NOT_FOUND));
        List<WeeklyInterval> weekly = input.weekly().stream().map(AvailabilityInput.Weekly::interval)
                .sorted(Comparator.comparingInt(WeeklyInterval::weekday).thenComparingInt(WeeklyInterval::startMinute))
                .toList();
        return QuarkusTransaction.requiringNew().call(() -> {
            if (Prescriber.findById(id, LockModeType.PESSIMISTIC_WRITE) == null) {
                throw ApiException.notFound(PRESCRIBER_NOT_FOUND);
            }
            PrescriberAvailability availability = PrescriberAvailability.findById(id);
            if (availability == null) {
                availability = new PrescriberAvailability();
                availability.prescriberId = id;
            }
            availability.timezone = input.timezone();
            availability.slotMinutes = input.slotMinutes();
            availability.updatedAt = clock.instant().truncatedTo(ChronoUnit.MILLIS);
            availability.persist();
            WeeklyHours.replace(id, weekly);
            audit.record("availability.update", "availability", id.toString(), null);
            return AvailabilityViews.of(availability, weekly);
        });
    }

    /** {@code GET}: {@code 404 Prescriber not found}, or {@code 404 Availability not set}. */
    public AvailabilityViews.Envelope get(String prescriberId) {
        UUID id = Ids.uuid(prescriberId).orElseThrow(() -> ApiException.notFound(PRESCRIBER_NOT_FOUND));
        return QuarkusTransaction.requiringNew().call(() -> {
            requirePrescriber(id);
            PrescriberAvailability availability = PrescriberAvailability.findById(id);
            if (availability == null) {
                throw ApiException.notFound(NOT_SET);
            }
            return AvailabilityViews.of(availability, WeeklyHours.of(id));
        });
    }

    /** {@code GET .../slots}: the prescriber's open slots in the range; none without hours. */
    public AvailabilityViews.Slots slots(String prescriberId, SlotRange range) {
        UUID id = Ids.uuid(prescriberId).orElseThrow(() -> ApiException.notFound(PRESCRIBER_NOT_FOUND));
        return QuarkusTransaction.requiringNew().call(() -> {
            requirePrescriber(id);
            return new AvailabilityViews.Slots(openSlots(id, range));
        });
    }

    /** The prescriber's open slots in the range (in the caller's transaction); none without hours. */
    public List<TimeSpan> openSlots(UUID prescriberId, SlotRange range) {
        return schedule(prescriberId)
                .map(schedule -> schedule.slots(range.from(), range.to(), clock.instant(),
                        booked.booked(prescriberId, range.from(), range.to().plus(Duration.ofMinutes(schedule.slotMinutes())))))
                .orElse(List.of());
    }

    /** The prescriber's hours, when set (in the caller's transaction). */
    public Optional<WeeklySchedule> schedule(UUID prescriberId) {
        PrescriberAvailability availability = PrescriberAvailability.findById(prescriberId);
        if (availability == null) {
            return Optional.empty();
        }
        return Optional.of(new WeeklySchedule(ZoneId.of(availability.timezone), WeeklyHours.of(prescriberId), availability.slotMinutes));
    }

    private static void requirePrescriber(UUID id) {
        if (Prescriber.findById(id) == null) {
            throw ApiException.notFound(PRESCRIBER_NOT_FOUND);
        }
    }
}
