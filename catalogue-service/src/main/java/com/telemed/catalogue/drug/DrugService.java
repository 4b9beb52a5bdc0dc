package com.telemed.catalogue.drug;

import com.telemed.common.audit.AuditTrail;
import com.telemed.common.error.ApiException;
import com.telemed.common.json.Timestamps;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.transaction.Transactional;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** The catalogue: drugs, their SKUs and pharmacy, and which of them a partner sees. */
@ApplicationScoped
public class DrugService {

    private final EntityManager entityManager;
    private final DrugRestrictions access;
    private final CatalogueEvents events;
    private final AuditTrail audit;

    public DrugService(EntityManager entityManager, DrugRestrictions access, CatalogueEvents events, AuditTrail audit) {
        this.entityManager = entityManager;
        this.access = access;
        this.events = events;
        this.audit = audit;
    }

    /**
     * Creates or replaces a drug. The listed SKUs become the drug's SKUs in the listed order: a SKU
     * without id is created with a new id, a SKU with id must be one of this drug's and keeps it
     * (its label and every other field may change). The drug's SKUs not listed are kept after the
     * listed ones as inactive, so requests holding their ids still resolve them.
     *
     * <p>Concurrent PUTs of one new id meet on the primary key (INSERT ... ON CONFLICT DO NOTHING
     * waits for the other transaction) and then hold the row lock in turn: the last one wins, none fails.
     * The new state takes the next catalogue version under that lock and is published
     * ({@code catalogue.drug_changed}) in the same transaction, with its audit entry ({@code drug.update}).
     */
    @Transactional
    public CatalogueDrug replace(String drugId, DrugInput input) {
        audit.record("drug.update", "drug", drugId, null);
        Instant now = Timestamps.now();
        Drug drug = lockedRow(drugId, input, now);
        drug.version = CatalogueVersions.next(entityManager);
        drug.name = input.name();
        drug.description = input.description();
        drug.defaultAdCopy = input.defaultAdCopy();
        drug.classification = input.classification();
        drug.pharmacyId = input.pharmacy().id();
        drug.pharmacyMethod = input.pharmacy().method();
        drug.updatedAt = now;

        Map<String, Sku> existing = new LinkedHashMap<>();
        skusOf(List.of(drugId)).forEach(sku -> existing.put(sku.id, sku));
        List<Sku> skus = new ArrayList<>();
        Set<String> listed = new HashSet<>();
        for (DrugInput.SkuInput entry : input.skus()) {
            Sku sku;
            if (entry.id() == null) {
                sku = new Sku();
                sku.id = SkuIds.next();
                sku.drugId = drugId;
                sku.createdAt = now;
            } else {
                sku = existing.get(entry.id());
                if (sku == null) {
                    throw ApiException.badRequest("SKU not found: " + entry.id());
                }
                listed.add(sku.id);
            }
            sku.label = entry.label();
            sku.packageSize = entry.packageSize();
            Concentration concentration = entry.concentration();
            sku.concentrationValue = concentration == null ? null : concentration.value();
            sku.concentrationActiveUnit = concentration == null ? null : concentration.activeUnit();
            sku.concentrationBaseUnit = concentration == null ? null : concentration.baseUnit();
            sku.active = entry.active();
            skus.add(sku);
        }
        existing.values().stream().filter(sku -> !listed.contains(sku.id)).forEach(sku -> {
            sku.active = false;
            skus.add(sku);
        });
        for (int position = 0; position < skus.size(); position++) {
            Sku sku = skus.get(position);
            sku.position = position;
            sku.updatedAt = now;
            if (!sku.isPersistent()) {
                sku.persist();
            }
        }
        CatalogueDrug replaced = new CatalogueDrug(drug, List.copyOf(skus));
        events.drugChanged(replaced, now);
        return replaced;
    }

    /** Every drug, ordered by id. */
    @Transactional
    public List<CatalogueDrug> all() {
        return withSkus(Drug.list("order by id"));
    }

    /** The drugs the partner may see: the full catalogue, or only the drugs the partner is restricted to. */
    @Transactional
    public List<CatalogueDrug> visibleTo(String partnerId) {
        Optional<List<String>> restriction = access.restriction(partnerId);
        if (restriction.isEmpty()) {
            return all();
        }
        if (restriction.get().isEmpty()) {
            return List.of();
        }
        return withSkus(Drug.list("id in ?1 order by id", restriction.get()));
    }

    private Drug lockedRow(String drugId, DrugInput input, Instant now) {
        // Only the NOT NULL columns: the caller sets every field on the locked entity afterwards.
        entityManager.createNativeQuery("""
                        INSERT INTO drugs (id, name, classification, pharmacy_id, pharmacy_method,
                                           created_at, updated_at)
                        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6)
                        ON CONFLICT (id) DO NOTHING""")
                .setParameter(1, drugId)
                .setParameter(2, input.name())
                .setParameter(3, input.classification())
                .setParameter(4, input.pharmacy().id())
                .setParameter(5, input.pharmacy().method())
                .setParameter(6, now)
                .executeUpdate();
        // Drugs are never deleted, so the row is there once the insert returned.
        return Drug.findById(drugId, LockModeType.PESSIMISTIC_WRITE);
    }

    private static List<CatalogueDrug> withSkus(List<Drug> drugs) {
        if (drugs.isEmpty()) {
            return List.of();
        }
        Map<String, List<Sku>> skusByDrug = new LinkedHashMap<>();
        drugs.forEach(drug -> skusByDrug.put(drug.id, new ArrayList<>()));
        skusOf(skusByDrug.keySet()).forEach(sku -> skusByDrug.get(sku.drugId).add(sku));
        return drugs.stream().map(drug -> new CatalogueDrug(drug, List.copyOf(skusByDrug.get(drug.id)))).toList();
    }

    private static List<Sku> skusOf(Collection<String> drugIds) {
        return Sku.list("drugId in ?1 order by drugId, position", List.copyOf(drugIds));
    }
}
