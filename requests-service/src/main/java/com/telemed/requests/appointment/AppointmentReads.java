package com.telemed.requests.appointment;

import com.telemed.common.audit.AuditTrail;
import com.telemed.common.error.ApiException;
import com.telemed.common.id.Ids;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.panache.common.Sort;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The appointments' reads (operations-api.md, "Consultations"; the console's list, issue #41): one appointment, and a
 * prescriber's appointments in a range. A person's read writes its audit entry in the read's transaction. The changes
 * are {@link Appointments}'.
 */
@ApplicationScoped
public class AppointmentReads {

    private final AuditTrail audit;

    public AppointmentReads(AuditTrail audit) {
        this.audit = audit;
    }

    /** {@code GET /ops/v1/appointments/:id}: a person's read is audited in the read's transaction. */
    public AppointmentView get(String id) {
        UUID uuid = Ids.uuid(id).orElseThrow(() -> ApiException.notFound(Appointments.NOT_FOUND));
        return QuarkusTransaction.requiringNew().call(() -> {
            Appointment appointment = Appointment.<Appointment>findByIdOptional(uuid)
                    .orElseThrow(() -> ApiException.notFound(Appointments.NOT_FOUND));
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
}
