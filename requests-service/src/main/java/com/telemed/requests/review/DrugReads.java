package com.telemed.requests.review;

import com.telemed.common.error.ApiException;
import com.telemed.requests.catalogue.CatalogueClient;
import com.telemed.requests.catalogue.DrugLookup;
import com.telemed.requests.request.Request;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

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

    /** Runs of one decision at most. */
    static final int MAX_RUNS = 4;

    private final CatalogueClient catalogue;

    DrugReads(CatalogueClient catalogue) {
        this.catalogue = catalogue;
    }

    <T> T withDrugs(Function<Drugs, T> decision) {
        Drugs drugs = new Drugs();
        for (int run = 1; ; run++) {
            try {
                return QuarkusTransaction.requiringNew().call(() -> decision.apply(drugs));
            } catch (NotRead missing) {
                if (run >= MAX_RUNS) {
                    throw new IllegalStateException("decision still needs another drug after " + run + " runs");
                }
                drugs.read.put(List.of(missing.partnerId, missing.drugId), catalogue.lookup(missing.partnerId, missing.drugId));
            }
        }
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
