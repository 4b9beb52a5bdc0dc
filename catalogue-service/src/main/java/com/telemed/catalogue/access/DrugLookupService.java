package com.telemed.catalogue.access;

import com.telemed.catalogue.drug.CatalogueDrug;
import com.telemed.catalogue.drug.Drug;
import com.telemed.catalogue.drug.DrugView;
import com.telemed.catalogue.drug.Pharmacy;
import com.telemed.catalogue.drug.Sku;
import com.telemed.common.error.ApiException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * What another service needs about one drug for one partner: requests-service asks on every create.
 *
 * <p>One statement reads the drug, its SKUs in SKU order and the partner's access, so the answer is
 * one snapshot without a transaction around it (issue 23: the entity reads and the transaction were
 * most of catalogue-service's cost per create). The drug and SKUs are shaped by the same
 * {@link DrugView} as the catalogue's other reads, from unmanaged {@link Drug} and {@link Sku} values.
 */
@ApplicationScoped
public class DrugLookupService {

    /** {@code drug}: the partner-visible record; {@code orderable}: the partner may order it. */
    public record DrugLookup(DrugView drug, boolean orderable, Pharmacy pharmacy) {
    }

    /**
     * The lookup's one statement ({@code ?1} the drug, {@code ?2} the partner). A partner without an
     * access row sees the full catalogue ({@link DrugAccessService}); one with a row may order the drugs
     * listed in it. bench/requests.sh's same-statements ceiling replays a copy (SameStatementsCeiling).
     */
    private static final String LOOKUP = """
            SELECT d.id, d.name, d.description, d.default_ad_copy, d.classification, d.pharmacy_id, d.pharmacy_method,
                   NOT EXISTS (SELECT 1 FROM partner_drug_access a WHERE a.partner_id = ?2)
                     OR EXISTS (SELECT 1 FROM partner_drug_access_drugs ad WHERE ad.partner_id = ?2 AND ad.drug_id = d.id),
                   s.id, s.label, s.package_size, s.concentration_value, s.concentration_active_unit,
                   s.concentration_base_unit, s.active, s.position
            FROM drugs d LEFT JOIN skus s ON s.drug_id = d.id
            WHERE d.id = ?1""";

    private final EntityManager entityManager;

    public DrugLookupService(EntityManager entityManager) {
        this.entityManager = entityManager;
    }

    public DrugLookup lookup(String drugId, String partnerId) {
        @SuppressWarnings("unchecked")
        List<Object[]> rows = entityManager.createNativeQuery(LOOKUP)
                .setParameter(1, drugId)
                .setParameter(2, partnerId)
                .getResultList();
        if (rows.isEmpty()) {
            throw ApiException.notFound("Drug not found");
        }
        Object[] first = rows.get(0);
        Drug drug = new Drug();
        drug.id = (String) first[0];
        drug.name = (String) first[1];
        drug.description = (String) first[2];
        drug.defaultAdCopy = (String) first[3];
        drug.classification = (String) first[4];
        drug.pharmacyId = (String) first[5];
        drug.pharmacyMethod = (String) first[6];
        boolean orderable = (Boolean) first[7];
        List<Sku> skus = new ArrayList<>();
        for (Object[] row : sortedBySkuPosition(rows)) {
            if (row[8] == null) {
                continue; // the LEFT JOIN's row of a drug without SKUs
            }
            Sku sku = new Sku();
            sku.id = (String) row[8];
            sku.drugId = drug.id;
            sku.label = (String) row[9];
            sku.packageSize = (BigDecimal) row[10];
            sku.concentrationValue = (BigDecimal) row[11];
            sku.concentrationActiveUnit = (String) row[12];
            sku.concentrationBaseUnit = (String) row[13];
            sku.active = (Boolean) row[14];
            sku.position = (Integer) row[15];
            skus.add(sku);
        }
        CatalogueDrug catalogueDrug = new CatalogueDrug(drug, List.copyOf(skus));
        return new DrugLookup(DrugView.of(catalogueDrug), orderable, Pharmacy.of(drug));
    }

    /**
     * The rows in SKU order. Sorted here, not by the statement: an ORDER BY over the join made PostgreSQL
     * sort on every call, which cut the statement's rate by four in pgbench (issue 23), for a handful of rows.
     */
    private static List<Object[]> sortedBySkuPosition(List<Object[]> rows) {
        List<Object[]> sorted = new ArrayList<>(rows);
        sorted.sort(Comparator.comparing(row -> (Integer) row[15], Comparator.nullsFirst(Comparator.naturalOrder())));
        return sorted;
    }
}
