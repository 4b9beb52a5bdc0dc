package com.telemed.billing.settings;

import java.math.BigDecimal;

/** The body of {@code PUT /ops/v1/partners/:id/billing}, bound once it has passed {@link BillingSettingsSchemas#BODY}. */
public record BillingSettingsInput(boolean enabled, String cycle, Integer weekday, BigDecimal ratePerMember) {
}
