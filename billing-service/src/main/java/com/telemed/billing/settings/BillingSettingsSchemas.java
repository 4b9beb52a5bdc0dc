package com.telemed.billing.settings;

import static com.telemed.common.validation.Schemas.bool;
import static com.telemed.common.validation.Schemas.enumOf;
import static com.telemed.common.validation.Schemas.number;
import static com.telemed.common.validation.Schemas.object;
import static com.telemed.common.validation.Schemas.string;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.common.validation.Issues;
import com.telemed.common.validation.ObjectSchema;
import com.telemed.common.validation.StringSchema;

/**
 * Zod-style schemas of {@code PUT /ops/v1/partners/:id/billing} (operations-api.md, "Partner settings"):
 * {@code {enabled, cycle: "monthly" | "weekly", weekday (1 Monday .. 7 Sunday, weekly only), ratePerMember}}.
 * A weekly cycle needs its weekday and a monthly one takes none.
 */
public final class BillingSettingsSchemas {

    static final String WEEKDAY_REQUIRED = "weekday is required for a weekly cycle";
    static final String WEEKDAY_MONTHLY = "weekday is only for a weekly cycle";
    /** More than any contracted rate; six decimals, as every amount the platform stores. */
    static final int RATE_MAX = 1_000_000;

    /** The partner id an operator path names (the gateway's ids fit; the owners refuse longer ones). */
    public static final StringSchema PARTNER_ID = string().min(1).max(64);

    static final ObjectSchema BODY = object()
            .field("enabled", bool())
            .field("cycle", enumOf(BillingSettings.MONTHLY, BillingSettings.WEEKLY))
            .field("weekday", number().integer().min(1).max(7).optional().nullable())
            .field("ratePerMember", number().min(0).max(RATE_MAX).decimals(6))
            .rule((body, path, issues) -> {
                JsonNode cycle = body.get("cycle");
                boolean weekday = body.hasNonNull("weekday");
                if (cycle != null && BillingSettings.WEEKLY.equals(cycle.asText()) && !weekday) {
                    issues.custom(Issues.append(path, "weekday"), WEEKDAY_REQUIRED);
                } else if (cycle != null && BillingSettings.MONTHLY.equals(cycle.asText()) && weekday) {
                    issues.custom(Issues.append(path, "weekday"), WEEKDAY_MONTHLY);
                }
            });

    private BillingSettingsSchemas() {
    }
}
