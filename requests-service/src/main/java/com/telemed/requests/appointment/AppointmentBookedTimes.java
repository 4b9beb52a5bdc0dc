package com.telemed.requests.appointment;

import com.telemed.requests.availability.BookedTimes;
import com.telemed.requests.availability.TimeSpan;
import io.quarkus.hibernate.orm.panache.Panache;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** The time a prescriber's appointments take, for the slots ({@link BookedTimes}). */
@ApplicationScoped
public class AppointmentBookedTimes implements BookedTimes {

    /**
     * Native SQL: JPQL has no range type. The condition is the exclusion constraint's own (V19,
     * {@code appointments_no_overlap}), so its GiST index answers it: the appointments a slot of the
     * range could collide with are exactly those the database would refuse a booking over.
     */
    @Override
    public List<TimeSpan> booked(UUID prescriberId, Instant from, Instant to) {
        @SuppressWarnings("unchecked")
        List<Object[]> rows = Panache.getEntityManager().createNativeQuery("""
                        SELECT start_time, end_time FROM appointments
                        WHERE prescriber_id = :prescriber AND status <> 'cancelled'
                          AND tstzrange(start_time, end_time, '[)') && tstzrange(CAST(:from AS timestamptz), CAST(:to AS timestamptz), '[)')
                        ORDER BY start_time""")
                .setParameter("prescriber", prescriberId)
                .setParameter("from", from)
                .setParameter("to", to)
                .getResultList();
        return rows.stream().map(row -> new TimeSpan(instant(row[0]), instant(row[1]))).toList();
    }

    private static Instant instant(Object value) {
        return value instanceof Timestamp timestamp ? timestamp.toInstant() : (Instant) value;
    }
}
