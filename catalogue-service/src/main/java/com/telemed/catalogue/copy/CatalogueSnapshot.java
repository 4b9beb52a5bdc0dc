package com.telemed.catalogue.copy;

import com.telemed.catalogue.access.AccessCopy;
import com.telemed.catalogue.drug.DrugCopy;
import java.util.List;

/**
 * {@code GET /internal/catalogue/snapshot}: every drug and every partner whose access was ever set, each
 * with its version, for a copy that starts empty or fell behind the topic's retention. Every drug and
 * partner that has no entry here has never been changed.
 */
public record CatalogueSnapshot(List<DrugCopy> drugs, List<AccessCopy> access) {
}
