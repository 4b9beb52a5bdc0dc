package com.telemed.requests.appointment;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.common.audit.AuditTrail;
import com.telemed.common.error.ApiException;
import com.telemed.common.id.Ids;
import com.telemed.common.validation.Binding;
import com.telemed.requests.availability.Availabilities;
import com.telemed.requests.availability.WeeklySchedule;
import com.telemed.requests.consultation.Bookings;
import com.telemed.requests.consultation.Consultation;
import com.telemed.requests.member.MemberRecord;
import com.telemed.requests.member.MembersClient;
import com.telemed.requests.prescriber.Prescriber;
import com.telemed.requests.request.HistoryEntry;
import com.telemed.requests.request.ItemStatus;
import com.telemed.requests.request.LineItem;
import com.telemed.requests.request.Request;
import com.telemed.requests.request.RequestStatus;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.panache.common.Sort;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The appointment lifecycle (operations-api.md, "Consultations"): book with a booking link,
 * reschedule, cancel (the consultation's item back to {@code pending}), record the outcome
 * ({@code held} or {@code no_show}, the same), read. The patient's name and email come from
 * members-service, asked before any transaction opens; each change then runs in one short
 * transaction under the request's row lock, like every writer of a request, and writes its
 * history, its event (outbox) and the reminders to come. Every refusal changes nothing.
 *
 * <p>One prescriber never has two appointments that overlap: the database refuses the second
 * (V19's exclusion constraint), whichever call books or moves it, and the loser is answered
 * {@code 409 Slot no longer available} ({@link SlotTaken}). When the prescriber has weekly hours
 * ({@code availability}), the booking page's calls (book, and the patient's reschedule) must name
 * the start of one of their slots, else {@code 400 Not an open slot}; the operator's reschedule may
 * name any time.
 */
@ApplicationScoped
public class Appointments {

    static final String LINK_NOT_FOUND = "Booking link not found";
    static final String LINK_EXPIRED = "Booking link has expired";
    static final String LINK_USED = "Booking link has already been used";
    static final String NOT_OPEN = "Consultation is no longer open";
    static final String NOT_FOUND = "Appointment not found";
    static final String NOT_AN_OPEN_SLOT = "Not an open slot";
    static final String NOTHING_BOOKED = "Nothing booked with this link";
    static final String STARTED = "Appointment has already started";

    private final Bookings bookings;
    private final MembersClient members;
    private final AppointmentEvents events;
    private final AppointmentConfig config;
    private final Availabilities availabilities;
    private final Clock clock;
    private final AuditTrail audit;

    public Appointments(Bookings bookings, MembersClient members, AppointmentEvents events, AppointmentConfig config,
                        Availabilities availabilities, Clock clock, AuditTrail audit) {
        this.audit = audit;
        this.bookings = bookings;
        this.members = members;
        this.events = events;
        this.config = config;
        this.availabilities = availabilities;
        this.clock = clock;
    }

    /** Now, to the millisecond: what the schemas of a time ({@link AppointmentSchemas#book}) compare with. */
    public Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MILLIS);
    }

    /** {@code POST /ops/v1/bookings/:token/appointment}. */
    public AppointmentView book(String token, BookInput input) {
        Consultation link = bookings.byToken(token).orElseThrow(() -> ApiException.notFound(LINK_NOT_FOUND));
        return book(link, input);
    }

    /**
     * The booking page's booking with its link already found: the sandbox patient
     * (simulation.Simulations) books through here, the body checked as the page's is.
     */
    public AppointmentView bookOnLink(Consultation link, JsonNode body) {
        return book(link, Binding.bind(AppointmentSchemas.book(this::now), body, BookInput.class));
    }

    private AppointmentView book(Consultation link, BookInput input) {
        Request unlocked = QuarkusTransaction.requiringNew().call(() -> Request.<Request>findById(link.requestId));
        if (unlocked == null) {
            throw ApiException.notFound(LINK_NOT_FOUND);
        }
        Patient patient = patient(unlocked.partnerId, unlocked.memberId);
        return SlotTaken.answering(() -> QuarkusTransaction.requiringNew().call(() -> {
            Instant now = now();
            Request request = Request.findById(link.requestId, LockModeType.PESSIMISTIC_WRITE);
            if (!link.expiresAt.isAfter(now)) {
                throw new ApiException(410, LINK_EXPIRED);
            }
            if (Appointment.count("consultationId", link.id) > 0) {
                throw new ApiException(409, LINK_USED);
            }
            if (!consultationOpen(request, link.itemId)) {
                throw new ApiException(409, NOT_OPEN);
            }
            Instant start = OffsetDateTime.parse(input.startTime()).toInstant().truncatedTo(ChronoUnit.MILLIS);
            Optional<WeeklySchedule> hours = availabilities.schedule(link.prescriberId);
            if (hours.isPresent() && (input.durationMinutes() != hours.get().slotMinutes() || !hours.get().startsSlot(start))) {
                throw ApiException.badRequest(NOT_AN_OPEN_SLOT);
            }
            Appointment appointment = new Appointment();
            appointment.id = UUID.randomUUID();
            appointment.partnerId = request.partnerId;
            appointment.requestId = request.id;
            appointment.itemId = link.itemId;
            appointment.consultationId = link.id;
            appointment.memberId = request.memberId;
            appointment.prescriberId = link.prescriberId;
            appointment.status = Appointment.BOOKED;
            appointment.createdAt = now;
            appointment.schedule(start, input.durationMinutes(), input.timezone(), now);
            patient.onto(appointment, prescriberName(link.prescriberId));
            appointment.persist();
            SlotTaken.flush();
            AppointmentReminder.plan(appointment, config.reminderOffsets(), now);
            request.touch(now);
            HistoryEntry.record(request.id, link.itemId, "appointment_booked", HistoryEntry.SERVICE, null, now);
            events.appointment(AppointmentEvents.APPOINTMENT_BOOKED, request, link.itemId, AppointmentPayloads.scheduled(appointment),
                    link.prescriberId, now);
            return AppointmentView.of(appointment);
        }));
    }

    /** {@code POST /ops/v1/appointments/:id/reschedule}: a booked appointment only; same id, new reminders; any time. */
    public AppointmentView reschedule(String id, RescheduleInput input) {
        Appointment found = find(id);
        Patient patient = patient(found.partnerId, found.memberId);
        return SlotTaken.answering(() -> QuarkusTransaction.requiringNew().call(() -> {
            Instant now = now();
            Locked locked = lock(found.id, found.requestId);
            Appointment appointment = locked.appointment();
            requireBooked(appointment);
            audited("appointment.reschedule", appointment);
            return moved(locked, OffsetDateTime.parse(input.startTime()).toInstant(),
                    input.durationMinutes() != null ? input.durationMinutes() : appointment.durationMinutes,
                    input.timezone() != null ? input.timezone() : appointment.timezone, patient, now);
        }));
    }

    /**
     * {@code POST /ops/v1/bookings/:token/appointment/reschedule}: the patient moves the link's
     * appointment before it starts. With weekly hours, to the start of one of the prescriber's slots,
     * and the appointment then lasts a slot; without, to any time, its duration kept.
     */
    public AppointmentView rescheduleByLink(String token, LinkRescheduleInput input) {
        Appointment found = booked(token);
        Patient patient = patient(found.partnerId, found.memberId);
        return SlotTaken.answering(() -> QuarkusTransaction.requiringNew().call(() -> {
            Instant now = now();
            Locked locked = lock(found.id, found.requestId);
            Appointment appointment = locked.appointment();
            requireBooked(appointment);
            requireNotStarted(appointment, now);
            Instant start = OffsetDateTime.parse(input.startTime()).toInstant().truncatedTo(ChronoUnit.MILLIS);
            int minutes = appointment.durationMinutes;
            Optional<WeeklySchedule> hours = availabilities.schedule(appointment.prescriberId);
            if (hours.isPresent()) {
                if (!hours.get().startsSlot(start)) {
                    throw ApiException.badRequest(NOT_AN_OPEN_SLOT);
                }
                minutes = hours.get().slotMinutes();
            }
            return moved(locked, start, minutes, input.timezone() != null ? input.timezone() : appointment.timezone, patient, now);
        }));
    }

    /** The new times written and checked by the database first, then reminders, history and {@code appointment.rescheduled}. */
    private AppointmentView moved(Locked locked, Instant start, int minutes, String zone, Patient patient, Instant now) {
        Appointment appointment = locked.appointment();
        appointment.schedule(start, minutes, zone, now);
        patient.onto(appointment, prescriberName(appointment.prescriberId));
        SlotTaken.flush();
        AppointmentReminder.plan(appointment, config.reminderOffsets(), now);
        locked.request().touch(now);
        HistoryEntry.record(appointment.requestId, appointment.itemId, "appointment_rescheduled", HistoryEntry.SERVICE, null, now);
        events.appointment(AppointmentEvents.APPOINTMENT_RESCHEDULED, locked.request(), appointment.itemId,
                AppointmentPayloads.scheduled(appointment), appointment.prescriberId, now);
        return AppointmentView.of(appointment);
    }

    /** {@code POST /ops/v1/appointments/:id/cancel}: the consultation closes; its item is pending again. */
    public AppointmentView cancel(String id, CancelInput input) {
        Appointment found = find(id);
        Patient patient = patient(found.partnerId, found.memberId);
        return QuarkusTransaction.requiringNew().call(() -> {
            Instant now = now();
            Locked locked = lock(found.id, found.requestId);
            requireBooked(locked.appointment());
            audited("appointment.cancel", locked.appointment());
            return cancelled(locked, input.cancelledBy(), input.reason(), patient, now);
        });
    }

    /** {@code POST /ops/v1/bookings/:token/appointment/cancel}: the patient cancels the link's appointment before it starts. */
    public AppointmentView cancelByLink(String token, LinkCancelInput input) {
        Appointment found = booked(token);
        Patient patient = patient(found.partnerId, found.memberId);
        return QuarkusTransaction.requiringNew().call(() -> {
            Instant now = now();
            Locked locked = lock(found.id, found.requestId);
            requireBooked(locked.appointment());
            requireNotStarted(locked.appointment(), now);
            return cancelled(locked, "patient", input.reason(), patient, now);
        });
    }

    private AppointmentView cancelled(Locked locked, String cancelledBy, String reason, Patient patient, Instant now) {
        Appointment appointment = locked.appointment();
        appointment.status = Appointment.CANCELLED;
        appointment.cancelledBy = cancelledBy;
        appointment.cancellationReason = reason;
        appointment.updatedAt = now;
        patient.onto(appointment, prescriberName(appointment.prescriberId));
        AppointmentReminder.forget(appointment.id);
        String by = "prescriber".equals(cancelledBy) ? appointment.prescriberId.toString() : HistoryEntry.SERVICE;
        closeConsultation(locked.request(), appointment, "appointment_cancelled", by, reason, now);
        events.appointment(AppointmentEvents.APPOINTMENT_CANCELLED, locked.request(), appointment.itemId,
                AppointmentPayloads.cancelled(appointment), appointment.prescriberId, now);
        return AppointmentView.of(appointment);
    }

    /** {@code POST /ops/v1/appointments/:id/outcome}: held or no-show; no event. */
    public AppointmentView outcome(String id, JsonNode body, java.util.function.Consumer<String> prescriberCheck) {
        OutcomeInput input = Binding.bind(AppointmentSchemas.OUTCOME, body, OutcomeInput.class);
        Appointment found = find(id);
        // A prescriber in person marks only their own appointments (403 Prescriber mismatch).
        prescriberCheck.accept(found.prescriberId.toString());
        return QuarkusTransaction.requiringNew().call(() -> {
            Instant now = now();
            Locked locked = lock(found.id, found.requestId);
            Appointment appointment = locked.appointment();
            requireBooked(appointment);
            appointment.status = input.outcome();
            appointment.updatedAt = now;
            AppointmentReminder.forget(appointment.id);
            boolean noShow = Appointment.NO_SHOW.equals(input.outcome());
            closeConsultation(locked.request(), appointment, noShow ? "consult_no_show" : "consult_held",
                    appointment.prescriberId.toString(), null, now);
            audited("appointment.record_outcome", appointment);
            return AppointmentView.of(appointment);
        });
    }

    /** {@code GET /ops/v1/appointments/:id}: a person's read is audited in the read's transaction. */
    public AppointmentView get(String id) {
        UUID uuid = Ids.uuid(id).orElseThrow(() -> ApiException.notFound(NOT_FOUND));
        return QuarkusTransaction.requiringNew().call(() -> {
            Appointment appointment = Appointment.<Appointment>findByIdOptional(uuid)
                    .orElseThrow(() -> ApiException.notFound(NOT_FOUND));
            audit.recordRead("appointment.read", "appointment", appointment.id.toString(), appointment.partnerId);
            return AppointmentView.of(appointment);
        });
    }

    /**
     * {@code GET /ops/v1/appointments}: the prescriber's appointments (any status) that end after
     * {@code from} and start before {@code to}, by start time (then id), at most {@code limit}. A
     * malformed or unknown prescriber id lists none. A person's read is one {@code appointment.list}
     * entry (target the prescriber, no partner: the list spans partners), in the read's transaction.
     */
    public AppointmentView.Listing list(AppointmentSchemas.ListQuery query) {
        return QuarkusTransaction.requiringNew().call(() -> {
            Optional<UUID> prescriber = Ids.uuid(query.prescriberId());
            audit.recordRead("appointment.list", "prescriber", prescriber.map(UUID::toString).orElse(query.prescriberId()), null);
            if (prescriber.isEmpty()) {
                return new AppointmentView.Listing(List.of());
            }
            List<Appointment> found = Appointment.<Appointment>find(
                            "prescriberId = ?1 and endTime > ?2 and startTime < ?3",
                            Sort.by("startTime").and("id"), prescriber.get(), query.from(), query.to())
                    .page(0, query.limit()).list();
            return new AppointmentView.Listing(found.stream().map(AppointmentView.Listed::of).toList());
        });
    }

    private void audited(String action, Appointment appointment) {
        audit.record(action, "appointment", appointment.id.toString(), appointment.partnerId);
    }

    private Appointment find(String id) {
        return Ids.uuid(id)
                .flatMap(uuid -> QuarkusTransaction.requiringNew().call(() -> Optional.ofNullable(Appointment.<Appointment>findById(uuid))))
                .orElseThrow(() -> ApiException.notFound(NOT_FOUND));
    }

    /**
     * The appointment booked with the link (any status): {@code 404 Booking link not found};
     * nothing booked: {@code 410 Booking link has expired} once the link expired, else
     * {@code 409 Nothing booked with this link}.
     */
    private Appointment booked(String token) {
        Consultation link = bookings.byToken(token).orElseThrow(() -> ApiException.notFound(LINK_NOT_FOUND));
        Optional<Appointment> appointment = QuarkusTransaction.requiringNew()
                .call(() -> Appointment.<Appointment>find("consultationId", link.id).firstResultOptional());
        if (appointment.isEmpty()) {
            throw !link.expiresAt.isAfter(now()) ? new ApiException(410, LINK_EXPIRED) : new ApiException(409, NOTHING_BOOKED);
        }
        return appointment.get();
    }

    private static void requireNotStarted(Appointment appointment, Instant now) {
        if (!now.isBefore(appointment.startTime)) {
            throw new ApiException(409, STARTED);
        }
    }

    private record Locked(Request request, Appointment appointment) {
    }

    /** The request's row lock first, as every writer of a request takes it, then the appointment as it is now. */
    private static Locked lock(UUID appointmentId, UUID requestId) {
        Request request = Request.findById(requestId, LockModeType.PESSIMISTIC_WRITE);
        Appointment appointment = request == null ? null : Appointment.findById(appointmentId, LockModeType.PESSIMISTIC_WRITE);
        if (appointment == null) {
            throw ApiException.notFound(NOT_FOUND);
        }
        return new Locked(request, appointment);
    }

    private static void requireBooked(Appointment appointment) {
        if (!Appointment.BOOKED.equals(appointment.status)) {
            throw new ApiException(409, "Appointment is " + appointment.status.replace('_', ' ') + ", not booked");
        }
    }

    /** The consultation the link was issued for is still asked: its item is call_requested, or the request's consultation is open. */
    static boolean consultationOpen(Request request, UUID itemId) {
        if (itemId == null) {
            return request.consultationOpen;
        }
        LineItem item = LineItem.findById(itemId);
        return item != null && ItemStatus.CALL_REQUESTED.equals(item.status);
    }

    /** Held, missed or cancelled: only the call_requested flag clears; the prescriber still decides. */
    private static void closeConsultation(Request request, Appointment appointment, String action, String by, String reason,
                                          Instant now) {
        if (appointment.itemId == null) {
            request.consultationOpen = false;
        } else {
            List<LineItem> items = LineItem.lockOfRequest(request.id);
            items.stream().filter(item -> item.id.equals(appointment.itemId) && ItemStatus.CALL_REQUESTED.equals(item.status))
                    .forEach(item -> {
                        item.status = ItemStatus.PENDING;
                        item.updatedAt = now;
                    });
            request.status = RequestStatus.stored(items.stream().map(item -> item.status).toList());
        }
        request.touch(now);
        HistoryEntry.record(request.id, appointment.itemId, action, by, reason, now);
    }

    static String prescriberName(UUID prescriberId) {
        Prescriber prescriber = Prescriber.findById(prescriberId);
        return prescriber == null ? null : prescriber.name;
    }

    /** The patient as members-service has them now; a member it no longer knows keeps the names last stored. */
    private record Patient(String name, String email) {
        void onto(Appointment appointment, String prescriberName) {
            if (name != null) {
                appointment.patientName = name;
                appointment.patientEmail = email;
            }
            appointment.prescriberName = prescriberName;
        }
    }

    private Patient patient(String partnerId, UUID memberId) {
        Optional<MemberRecord> member = members.find(partnerId, memberId.toString());
        return member.map(found -> new Patient(found.name(), found.email())).orElse(new Patient(null, null));
    }
}
