package com.telemed.requests.appointment;

import com.telemed.common.error.ApiException;
import io.quarkus.hibernate.orm.panache.Panache;
import jakarta.persistence.PersistenceException;
import java.sql.SQLException;
import java.util.function.Supplier;

/**
 * The database's answer to two overlapping appointments of one prescriber (V19's exclusion
 * constraint {@code appointments_no_overlap}, SQLState 23P01), as the contract's
 * {@code 409 {"error":"Slot no longer available"}}. Whichever statement of a booking or a
 * reschedule meets the constraint (the flush right after the times change, or, failing that, the
 * commit), the transaction rolls back whole: no appointment, history, event or reminder of it stays.
 */
final class SlotTaken {

    static final String MESSAGE = "Slot no longer available";
    static final String EXCLUSION_VIOLATION = "23P01";

    private SlotTaken() {
    }

    /** Writes the appointment's new times now, so that a collision is answered here rather than at a later statement. */
    static void flush() {
        try {
            Panache.getEntityManager().flush();
        } catch (PersistenceException e) {
            throw mapped(e);
        }
    }

    /** Runs {@code transaction}; a collision met anywhere in it, its commit included, is the 409. */
    static <T> T answering(Supplier<T> transaction) {
        try {
            return transaction.get();
        } catch (ApiException e) {
            throw e;
        } catch (RuntimeException e) {
            throw mapped(e);
        }
    }

    private static RuntimeException mapped(RuntimeException failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLException sql && EXCLUSION_VIOLATION.equals(sql.getSQLState())) {
                return new ApiException(409, MESSAGE);
            }
        }
        return failure;
    }
}
