package com.telemed.catalogue.drug;

import java.util.List;
import java.util.Optional;

/**
 * Which drugs a partner is restricted to: what the drug feature needs of the access feature,
 * declared here and implemented there ({@code access.DrugAccessService}), so access depends on
 * drugs and never the other way round.
 */
public interface DrugRestrictions {

    /** The drugs the partner is restricted to, or empty when the partner sees the full catalogue. */
    Optional<List<String>> restriction(String partnerId);
}
