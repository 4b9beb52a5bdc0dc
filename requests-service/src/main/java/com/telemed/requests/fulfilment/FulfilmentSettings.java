package com.telemed.requests.fulfilment;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;

/**
 * A partner's fulfilment mode (operations-api.md, "Partner settings", owned here; table
 * {@code fulfilment_settings}). Without a row the partner is {@code automatic}. The gateway owns
 * partners: the setting is stored under whatever id the operator names, as the other services do.
 */
@Entity
@Table(name = "fulfilment_settings")
public class FulfilmentSettings extends PanacheEntityBase {

    public static final String AUTOMATIC = "automatic";
    public static final String DEFERRED = "deferred";

    @Id
    @Column(name = "partner_id", nullable = false, updatable = false)
    public String partnerId;

    @Column(name = "mode", nullable = false)
    public String mode;

    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;

    /** The partner's mode: {@code automatic} unless set to {@code deferred}. */
    public static String modeOf(String partnerId) {
        FulfilmentSettings settings = findById(partnerId);
        return settings == null ? AUTOMATIC : settings.mode;
    }

    /** Upsert: two first settings of one partner at once both succeed, the later commit wins. */
    public static void set(String partnerId, String mode, Instant at) {
        getEntityManager().createNativeQuery("""
                        INSERT INTO fulfilment_settings (partner_id, mode, updated_at) VALUES (:partner, :mode, :at)
                        ON CONFLICT (partner_id) DO UPDATE SET mode = excluded.mode, updated_at = excluded.updated_at""")
                .setParameter("partner", partnerId).setParameter("mode", mode).setParameter("at", at)
                .executeUpdate();
    }

    public static boolean deferred(String partnerId) {
        return DEFERRED.equals(modeOf(partnerId));
    }
}
