package com.telemed.catalogue.drug;

import jakarta.persistence.EntityManager;

/**
 * The catalogue's one change counter ({@code catalogue_versions}, V3__catalogue_events.sql). Taken by a
 * change while it holds the lock of what it changes, so for one drug or one partner a higher version is
 * a later commit: what lets a copy apply events and snapshots in any order.
 */
public final class CatalogueVersions {

    private CatalogueVersions() {
    }

    /** The next version, for a drug whose row lock the caller holds. */
    public static long next(EntityManager entityManager) {
        return ((Number) entityManager.createNativeQuery("SELECT nextval('catalogue_versions')").getSingleResult()).longValue();
    }

    /**
     * The partner's next access version: its version row is created or bumped, and locked until the
     * transaction ends, so every change of one partner's access (restricting or opening) runs one after
     * the other, each with a higher version.
     */
    public static long nextForPartner(EntityManager entityManager, String partnerId) {
        return ((Number) entityManager.createNativeQuery("""
                        INSERT INTO partner_access_versions (partner_id, version) VALUES (?1, nextval('catalogue_versions'))
                        ON CONFLICT (partner_id) DO UPDATE SET version = nextval('catalogue_versions')
                        RETURNING version""")
                .setParameter(1, partnerId)
                .getSingleResult()).longValue();
    }
}
