package com.telemed.billing.settings;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.math.BigDecimal;
import java.time.Instant;

/**
 * A partner's billing settings (table {@code billing_settings}). The gateway owns partners: the
 * setting is stored under whatever id the operator names, as the other services' settings are.
 */
@Entity
@Table(name = "billing_settings")
public class BillingSettings extends PanacheEntityBase {

    public static final String MONTHLY = "monthly";
    public static final String WEEKLY = "weekly";

    @Id
    @Column(name = "partner_id", nullable = false, updatable = false)
    public String partnerId;

    @Column(name = "enabled", nullable = false)
    public boolean enabled;

    @Column(name = "cycle", nullable = false)
    public String cycle;

    /** 1 Monday .. 7 Sunday; weekly only. */
    @Column(name = "weekday")
    public Integer weekday;

    @Column(name = "rate_per_member", nullable = false)
    public BigDecimal ratePerMember;

    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;

    /** Upsert: concurrent first settings of one partner all succeed, the later commit wins. */
    static void set(String partnerId, boolean enabled, String cycle, Integer weekday, BigDecimal rate, Instant at) {
        getEntityManager().createNativeQuery("""
                        INSERT INTO billing_settings (partner_id, enabled, cycle, weekday, rate_per_member, updated_at)
                        VALUES (:partner, :enabled, :cycle, :weekday, :rate, :at)
                        ON CONFLICT (partner_id) DO UPDATE SET enabled = excluded.enabled, cycle = excluded.cycle,
                            weekday = excluded.weekday, rate_per_member = excluded.rate_per_member, updated_at = excluded.updated_at""")
                .setParameter("partner", partnerId).setParameter("enabled", enabled).setParameter("cycle", cycle)
                .setParameter("weekday", weekday).setParameter("rate", rate).setParameter("at", at)
                .executeUpdate();
    }
}
