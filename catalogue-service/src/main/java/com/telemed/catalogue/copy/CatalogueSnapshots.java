package com.telemed.catalogue.copy;

import com.telemed.catalogue.access.AccessCopy;
import com.telemed.catalogue.drug.DrugCopy;
import com.telemed.catalogue.drug.DrugService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;
import java.util.ArrayList;
import java.util.List;

/**
 * The whole catalogue with its versions, for a copy that starts (or restarts) from nothing. Read in one
 * transaction; a change committed meanwhile is in the snapshot or arrives as an event with a higher
 * version, and the copy ends the same either way.
 */
@ApplicationScoped
public class CatalogueSnapshots {

    /** Every partner whose access was ever set: its version, whether a restriction is stored, the drugs in order. */
    private static final String ACCESS = """
            SELECT v.partner_id, v.version, a.partner_id IS NOT NULL, ad.drug_id
            FROM partner_access_versions v
            LEFT JOIN partner_drug_access a ON a.partner_id = v.partner_id
            LEFT JOIN partner_drug_access_drugs ad ON ad.partner_id = v.partner_id
            ORDER BY v.partner_id, ad.position""";

    private final DrugService drugs;
    private final EntityManager entityManager;

    public CatalogueSnapshots(DrugService drugs, EntityManager entityManager) {
        this.drugs = drugs;
        this.entityManager = entityManager;
    }

    @Transactional
    public CatalogueSnapshot take() {
        List<DrugCopy> drugCopies = drugs.all().stream().map(DrugCopy::of).toList();
        @SuppressWarnings("unchecked")
        List<Object[]> rows = entityManager.createNativeQuery(ACCESS).getResultList();
        List<AccessCopy> access = new ArrayList<>();
        String partner = null;
        long version = 0;
        List<String> drugIds = null;
        for (Object[] row : rows) {
            if (!row[0].equals(partner)) {
                if (partner != null) {
                    access.add(new AccessCopy(partner, version, drugIds == null ? null : List.copyOf(drugIds)));
                }
                partner = (String) row[0];
                version = ((Number) row[1]).longValue();
                drugIds = (Boolean) row[2] ? new ArrayList<>() : null;
            }
            if (row[3] != null && drugIds != null) {
                drugIds.add((String) row[3]);
            }
        }
        if (partner != null) {
            access.add(new AccessCopy(partner, version, drugIds == null ? null : List.copyOf(drugIds)));
        }
        return new CatalogueSnapshot(drugCopies, access);
    }
}
