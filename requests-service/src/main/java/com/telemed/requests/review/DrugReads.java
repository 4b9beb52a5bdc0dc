package com.telemed.requests.review;

import com.telemed.common.error.ApiException;
import com.telemed.requests.catalogue.CatalogueClient;
import com.telemed.requests.catalogue.DrugLookup;
import com.telemed.requests.request.Request;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.jboss.logging.Logger;

/**
 * Runs a decision that needs catalogue data in a short transaction of its own, never calling
 * catalogue-service inside it. The first run decides with no drug read: when it reaches one
 * ({@link Drugs#of}), it rolls back, the drug is read with no transaction open (no connection
 * held, the row lock released), and the decision runs again from the start. That run locks and
 * reads the request afresh, so whatever changed meanwhile (another prescriber's decision, a
 * cancel) is answered exactly as it would be had this call come after it. The checks before the
 * drug come in the same order as ever: a request or item error is answered without asking the
 * catalogue. A drug id only changes with the request's state, so the runs settle at once;
 * {@link #MAX_RUNS} bounds them all the same.
 */
@ApplicationScoped
class DrugReads {

    /** Runs of one decision for its drugs at most. */
    static final int MAX_RUNS = 4;
    /** Times one decision is run again after PostgreSQL chose it as a deadlock's victim, at most. */
    static final int MAX_DEADLOCK_RETRIES = 2;
    /** PostgreSQL's {@code deadlock_detected}. */
    private static final String DEADLOCK_DETECTED = "40P01";
    private static final Logger LOG = Logger.getLogger(DrugReads.class);

    private final CatalogueClient catalogue;

    DrugReads(CatalogueClient catalogue) {
        this.catalogue = catalogue;
    }

    /**
     * Runs the decision in a transaction of its own, again from the start after a drug read and after
     * a deadlock. A decision that adds the first item to a request changes the partner's list counters
     * twice in one transaction, and can meet another writer taking the same two statuses in the other
     * order (V25): PostgreSQL then aborts one of them whole. The aborted one is this decision's to repeat,
     * as a fresh run that locks and reads the request anew, rather than the prescriber's: only when it
     * is aborted again {@value #MAX_DEADLOCK_RETRIES} times does the call fail (the contract's 500).
     */
    <T> T withDrugs(Function<Drugs, T> decision) {
        Drugs drugs = new Drugs();
        int drugRuns = 1;
        int deadlocks = 0;
        while (true) {
            try {
                return QuarkusTransaction.requiringNew().call(() -> decision.apply(drugs));
            } catch (NotRead missing) {
                if (drugRuns++ >= MAX_RUNS) {
                    throw new IllegalStateException("decision still needs another drug after " + MAX_RUNS + " runs");
                }
                drugs.read.put(List.of(missing.partnerId, missing.drugId), catalogue.lookup(missing.partnerId, missing.drugId));
            } catch (RuntimeException failure) {
                if (!deadlockVictim(failure) || deadlocks++ >= MAX_DEADLOCK_RETRIES) {
                    throw failure;
                }
                LOG.infof("a decision was aborted as a deadlock's victim and runs again (retry %d of %d)", deadlocks,
                        MAX_DEADLOCK_RETRIES);
            }
        }
    }

    /** Whether PostgreSQL aborted the transaction to end a deadlock, wherever the persistence layers wrapped that. */
    static boolean deadlockVictim(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLException sql && DEADLOCK_DETECTED.equals(sql.getSQLState())) {
                return true;
            }
        }
        return false;
    }

    /** Drugs read from catalogue-service for one decision, by partner and drug id (an unknown drug is read as empty). */
    static final class Drugs {

        private final Map<List<String>, Optional<DrugLookup>> read = new HashMap<>();

        /** The drug, or the decision's {@code 400}/{@code 403} answer; {@link NotRead} when it was not read yet. */
        DrugLookup of(Request request, String drugId) {
            Optional<DrugLookup> lookup = read.get(List.of(request.partnerId, drugId));
            if (lookup == null) {
                throw new NotRead(request.partnerId, drugId);
            }
            DrugLookup drug = lookup.orElseThrow(() -> ApiException.badRequest("Invalid drugId - drug not found: " + drugId));
            if (!drug.orderable()) {
                throw new ApiException(403, "Partner does not have access to drug: " + drugId);
            }
            return drug;
        }
    }

    /** Rolls the decision's transaction back so the drug can be read outside it. */
    private static final class NotRead extends RuntimeException {

        final String partnerId;
        final String drugId;

        NotRead(String partnerId, String drugId) {
            super(null, null, false, false);
            this.partnerId = partnerId;
            this.drugId = drugId;
        }
    }
}
