package com.telemed.billing.settings;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.math.BigDecimal;

/** Wire shapes of the billing settings endpoints. */
public final class BillingSettingsViews {

    private BillingSettingsViews() {
    }

    /** {@code {enabled, cycle, weekday, ratePerMember}}: what is stored, the rate without trailing zeros. */
    @JsonPropertyOrder({"enabled", "cycle", "weekday", "ratePerMember"})
    public record Settings(boolean enabled, String cycle, Integer weekday, BigDecimal ratePerMember) {
        static Settings of(BillingSettings settings) {
            return new Settings(settings.enabled, settings.cycle, settings.weekday, settings.ratePerMember.stripTrailingZeros());
        }
    }
}
