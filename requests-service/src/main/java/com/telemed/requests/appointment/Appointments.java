package com.telemed.requests.appointment;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.telemed.common.audit.AuditTrail;
import com.telemed.common.error.ApiException;
import com.telemed.common.id.Ids;
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
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * The appointment lifecycle (operations-api.md, "Consultations"): book with a booking link,
 * reschedule, cancel (the consultation's item back to {@code pending}), record the outcome
 * ({@code held} or {@code no_show}, the same); the reads are {@link AppointmentReads}. The patient's
 * name and email come from members-service, asked before any transaction opens; each change then runs
 * in one short transaction under the request's row lock, like every writer of a request, and writes its
 * history, its event (outbox) and the reminders to come. Every change to a booked appointment takes one
 * shape ({@link #change}: lock, check, change, audit, then {@link #recorded}: history, event, view); a
 * booking ends the same way. Every refusal changes nothing.
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
     * (simulation.Simulations) books an open slot through here, checked as the page's body is.
     */
    public AppointmentView bookOnLink(Consultation link, BookInput input) {
        return book(link, AppointmentSchemas.checkedBooking(input, this::now));
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
            return recorded(request, appointment, Changed.publishing("appointment_booked", HistoryEntry.SERVICE, null,
                    AppointmentEvents.APPOINTMENT_BOOKED, AppointmentPayloads.scheduled(appointment)), now);
        }));
    }

    /** {@code POST /ops/v1/appointments/:id/reschedule}: a booked appointment only; same id, new reminders; any time. */
    public AppointmentView reschedule(String id, RescheduleInput input) {
        Appointment found = find(id);
        Patient patient = patient(found.partnerId, found.memberId);
        return change(found, "appointment.reschedule", (appointment, request, now) -> moved(appointment,
                OffsetDateTime.parse(input.startTime()).toInstant(),
                input.durationMinutes() != null ? input.durationMinutes() : appointment.durationMinutes,
                input.timezone() != null ? input.timezone() : appointment.timezone, patient, now));
    }

    /**
     * {@code POST /ops/v1/bookings/:token/appointment/reschedule}: the patient moves the link's
     * appointment before it starts. With weekly hours, to the start of one of the prescriber's slots,
     * and the appointment then lasts a slot; without, to any time, its duration kept.
     */
    public AppointmentView rescheduleByLink(String token, LinkRescheduleInput input) {
        Appointment found = booked(token);
        Patient patient = patient(found.partnerId, found.memberId);
        return change(found, null, (appointment, request, now) -> {
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
            return moved(appointment, start, minutes, input.timezone() != null ? input.timezone() : appointment.timezone, patient, now);
        });
    }

    /** The new times written and checked by the database first, then new reminders; {@code appointment.rescheduled}. */
    private Changed moved(Appointment appointment, Instant start, int minutes, String zone, Patient patient, Instant now) {
        appointment.schedule(start, minutes, zone, now);
        patient.onto(appointment, prescriberName(appointment.prescriberId));
        SlotTaken.flush();
        AppointmentReminder.plan(appointment, config.reminderOffsets(), now);
        return Changed.publishing("appointment_rescheduled", HistoryEntry.SERVICE, null,
                AppointmentEvents.APPOINTMENT_RESCHEDULED, AppointmentPayloads.scheduled(appointment));
    }

    /** {@code POST /ops/v1/appointments/:id/cancel}: the consultation closes; its item is pending again. */
    public AppointmentView cancel(String id, CancelInput input) {
        Appointment found = find(id);
        Patient patient = patient(found.partnerId, found.memberId);
        return change(found, "appointment.cancel",
                (appointment, request, now) -> cancelled(appointment, request, input.cancelledBy(), input.reason(), patient, now));
    }

    /** {@code POST /ops/v1/bookings/:token/appointment/cancel}: the patient cancels the link's appointment before it starts. */
    public AppointmentView cancelByLink(String token, LinkCancelInput input) {
        Appointment found = booked(token);
        Patient patient = patient(found.partnerId, found.memberId);
        return change(found, null, (appointment, request, now) -> {
            requireNotStarted(appointment, now);
            return cancelled(appointment, request, "patient", input.reason(), patient, now);
        });
    }

    /** Cancelled by the patient or the prescriber ({@code by} the prescriber's id then); {@code appointment.cancelled}. */
    private Changed cancelled(Appointment appointment, Request request, String cancelledBy, String reason, Patient patient,
                              Instant now) {
        appointment.status = Appointment.CANCELLED;
        appointment.cancelledBy = cancelledBy;
        appointment.cancellationReason = reason;
        appointment.updatedAt = now;
        patient.onto(appointment, prescriberName(appointment.prescriberId));
        AppointmentReminder.forget(appointment.id);
        closeConsultation(request, appointment, now);
        String by = "prescriber".equals(cancelledBy) ? appointment.prescriberId.toString() : HistoryEntry.SERVICE;
        return Changed.publishing("appointment_cancelled", by, reason, AppointmentEvents.APPOINTMENT_CANCELLED,
                AppointmentPayloads.cancelled(appointment));
    }

    /**
     * {@code POST /ops/v1/appointments/:id/outcome}: held or no-show; no event. {@code prescriberCheck} runs once the
     * appointment is found: a prescriber in person marks only their own ({@code 403 Prescriber mismatch}).
     */
    public AppointmentView outcome(String id, OutcomeInput input, Consumer<String> prescriberCheck) {
        Appointment found = find(id);
        prescriberCheck.accept(found.prescriberId.toString());
        return change(found, "appointment.record_outcome", (appointment, request, now) -> {
            appointment.status = input.outcome();
            appointment.updatedAt = now;
            AppointmentReminder.forget(appointment.id);
            closeConsultation(request, appointment, now);
            boolean noShow = Appointment.NO_SHOW.equals(input.outcome());
            return Changed.recording(noShow ? "consult_no_show" : "consult_held", appointment.prescriberId.toString());
        });
    }

    /** A change to a booked appointment, under its locks ({@link #change}); a refusal is thrown before anything changes. */
    @FunctionalInterface
    private interface Change {
        Changed apply(Appointment appointment, Request request, Instant now);
    }

    /** What a change writes after it: its history entry, and its event (none: {@code event} null). */
    private record Changed(String action, String by, String reason, String event, ObjectNode fields) {

        static Changed recording(String action, String by) {
            return new Changed(action, by, null, null, null);
        }

        static Changed publishing(String action, String by, String reason, String event, ObjectNode fields) {
            return new Changed(action, by, reason, event, fields);
        }
    }

    /**
     * Every change to a booked appointment, one shape: one transaction (a slot collision anywhere in it, its commit
     * included, is {@code 409 Slot no longer available}); the request's row lock, then the appointment's; the
     * appointment still booked; its audit entry (a person's or the operator's change; none for the patient's link);
     * the change; then {@link #recorded}.
     */
    private AppointmentView change(Appointment found, String auditAction, Change change) {
        return SlotTaken.answering(() -> QuarkusTransaction.requiringNew().call(() -> {
            Instant now = now();
            Locked locked = lock(found.id, found.requestId);
            Appointment appointment = locked.appointment();
            requireBooked(appointment);
            Changed changed = change.apply(appointment, locked.request(), now);
            if (auditAction != null) {
                audited(auditAction, appointment);
            }
            return recorded(locked.request(), appointment, changed, now);
        }));
    }

    /** The request touched, the change's history entry and its event (outbox, same transaction), the view. */
    private AppointmentView recorded(Request request, Appointment appointment, Changed changed, Instant now) {
        request.touch(now);
        HistoryEntry.record(request.id, appointment.itemId, changed.action(), changed.by(), changed.reason(), now);
        if (changed.event() != null) {
            events.appointment(changed.event(), request, appointment.itemId, changed.fields(), appointment.prescriberId, now);
        }
        return AppointmentView.of(appointment);
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
    private static void closeConsultation(Request request, Appointment appointment, Instant now) {
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
