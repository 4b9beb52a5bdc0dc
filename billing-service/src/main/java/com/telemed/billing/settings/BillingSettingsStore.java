package com.telemed.billing.settings;

import com.telemed.common.audit.AuditTrail;
import com.telemed.common.json.Timestamps;
import io.quarkus.hibernate.orm.panache.Panache;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.util.Optional;

/**
 * The partners' billing settings (table {@code billing_settings}): stored with the operator's audit entry in
 * one transaction, and read.
 */
@ApplicationScoped
public class BillingSettingsStore {

    private final AuditTrail audit;

    public BillingSettingsStore(AuditTrail audit) {
        this.audit = audit;
    }

    /** Stores the partner's settings (an upsert: concurrent first settings all succeed) and answers what is stored. */
    @Transactional
    public BillingSettingsViews.Settings put(String partnerId, BillingSettingsInput input) {
        BillingSettings.set(partnerId, input.enabled(), input.cycle(), input.weekday(), input.ratePerMember(), Timestamps.now());
        audit.record("billing_settings.update", "billing_settings", partnerId, partnerId);
        Panache.getEntityManager().clear();
        return BillingSettingsViews.Settings.of(BillingSettings.findById(partnerId));
    }

    /** The partner's settings; empty when never set. */
    @Transactional
    public Optional<BillingSettingsViews.Settings> find(String partnerId) {
        return BillingSettings.<BillingSettings>findByIdOptional(partnerId).map(BillingSettingsViews.Settings::of);
    }
}
