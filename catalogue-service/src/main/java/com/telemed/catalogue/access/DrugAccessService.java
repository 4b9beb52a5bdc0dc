package com.telemed.catalogue.access;

import com.telemed.catalogue.drug.CatalogueVersions;
import com.telemed.catalogue.drug.DrugRestrictions;
import com.telemed.common.audit.AuditTrail;
import com.telemed.common.json.Timestamps;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.transaction.Transactional;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Which drugs each partner may see and order. Every read and write is keyed by the partner id. */
@ApplicationScoped
public class DrugAccessService implements DrugRestrictions {

    private static final int ATTEMPTS = 5;

    private final EntityManager entityManager;
    private final AccessEvents events;
    private final AuditTrail audit;

    public DrugAccessService(EntityManager entityManager, AccessEvents events, AuditTrail audit) {
        this.entityManager = entityManager;
        this.events = events;
        this.audit = audit;
    }

    /**
     * Sets the partner's access: {@code null} opens the full catalogue, a list (duplicates dropped,
     * order kept) restricts the partner to those drugs. Ids of drugs that do not exist (yet) are kept.
     * Returns what is stored. Every call is a change with the partner's next catalogue version (taken
     * first: its lock orders concurrent calls for one partner), published as
     * {@code catalogue.access_changed} in the same transaction, with its audit entry ({@code drug_access.update}).
     */
    @Transactional
    public Optional<List<String>> set(String partnerId, List<String> drugIds) {
        audit.record("drug_access.update", "drug_access", partnerId, partnerId);
        long version = CatalogueVersions.nextForPartner(entityManager, partnerId);
        Instant now = Timestamps.now();
        if (drugIds == null) {
            // A bulk delete: concurrent removals never fail on a row already gone.
            entityManager.createNativeQuery("DELETE FROM partner_drug_access WHERE partner_id = ?1")
                    .setParameter(1, partnerId)
                    .executeUpdate();
            events.accessChanged(partnerId, version, null, now);
            return Optional.empty();
        }
        PartnerDrugAccess access = lockedRow(partnerId);
        access.drugIds.clear();
        drugIds.stream().distinct().forEach(access.drugIds::add);
        access.updatedAt = now;
        List<String> stored = List.copyOf(access.drugIds);
        events.accessChanged(partnerId, version, stored, now);
        return Optional.of(stored);
    }

    /** The drugs the partner is restricted to, or empty when the partner sees the full catalogue. */
    @Override
    @Transactional
    public Optional<List<String>> restriction(String partnerId) {
        return PartnerDrugAccess.<PartnerDrugAccess>findByIdOptional(partnerId)
                .map(access -> List.copyOf(access.drugIds));
    }

    /**
     * The partner's row, created when missing and locked: concurrent first writes for one partner
     * meet on the primary key (INSERT ... ON CONFLICT DO NOTHING waits for the other transaction)
     * instead of failing on a duplicate key, then run one after the other.
     */
    private PartnerDrugAccess lockedRow(String partnerId) {
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            var now = Timestamps.now();
            entityManager.createNativeQuery("""
                            INSERT INTO partner_drug_access (partner_id, created_at, updated_at)
                            VALUES (?1, ?2, ?2) ON CONFLICT (partner_id) DO NOTHING""")
                    .setParameter(1, partnerId)
                    .setParameter(2, now)
                    .executeUpdate();
            PartnerDrugAccess access = PartnerDrugAccess.findById(partnerId, LockModeType.PESSIMISTIC_WRITE);
            if (access != null) {
                return access;
            }
            // Opened to the full catalogue by a concurrent call between the insert and the lock: again.
        }
        throw new IllegalStateException("drug access row kept disappearing");
    }
}
