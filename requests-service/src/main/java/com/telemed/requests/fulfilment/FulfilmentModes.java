package com.telemed.requests.fulfilment;

import com.telemed.common.audit.AuditTrail;
import com.telemed.common.json.Timestamps;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

/**
 * A partner's fulfilment mode (operations-api.md, "Partner settings"; {@link FulfilmentSettings}, table
 * {@code fulfilment_settings}): read, and set with its audit entry in the same transaction.
 */
@ApplicationScoped
public class FulfilmentModes {

    private final AuditTrail audit;

    public FulfilmentModes(AuditTrail audit) {
        this.audit = audit;
    }

    /** The partner's mode: {@code automatic} unless set to {@code deferred}. */
    @Transactional
    public FulfilmentViews.Mode mode(String partnerId) {
        return new FulfilmentViews.Mode(FulfilmentSettings.modeOf(partnerId));
    }

    /** Stores the mode (the later of two concurrent first settings wins) and audits the change. */
    @Transactional
    public FulfilmentViews.Mode set(String partnerId, FulfilmentModeInput input) {
        FulfilmentSettings.set(partnerId, input.mode(), Timestamps.now());
        audit.record("fulfilment_settings.update", "fulfilment_settings", partnerId, partnerId);
        return new FulfilmentViews.Mode(input.mode());
    }
}
