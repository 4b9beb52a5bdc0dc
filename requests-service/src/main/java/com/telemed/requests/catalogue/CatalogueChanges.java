package com.telemed.requests.catalogue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * What catalogue-service publishes of its changes ({@code catalogue.events}) and answers as its snapshot
 * ({@code GET /internal/catalogue/snapshot}), as far as the copy reads it. Every state carries the
 * catalogue version it has; the copy keeps the highest.
 */
public final class CatalogueChanges {

    public static final String TOPIC = "catalogue.events";
    public static final String DRUG_CHANGED = "catalogue.drug_changed";
    public static final String ACCESS_CHANGED = "catalogue.access_changed";

    private CatalogueChanges() {
    }

    /** One drug: the partner-visible record as the lookup answers it, its pharmacy. */
    public record Drug(String drugId, long version, JsonNode drug, DrugLookup.Pharmacy pharmacy) {
    }

    /** One partner's access: {@code drugIds} null for the full catalogue, else the drugs it may order. */
    public record Access(String partnerId, long version, List<String> drugIds) {
    }

    /** Every drug, and every partner whose access was ever set. */
    public record Snapshot(List<Drug> drugs, List<Access> access) {
    }

    /** A {@code catalogue.events} envelope, as far as the copy reads it. */
    public record Event(String id, String type, JsonNode data) {
    }
}
