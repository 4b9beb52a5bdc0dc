package com.telemed.webhook.settings;

import static com.telemed.common.validation.Schemas.object;
import static com.telemed.common.validation.Schemas.string;

import com.telemed.common.validation.ObjectSchema;
import com.telemed.common.validation.StringSchema;

/** Zod-style schemas of the webhook settings endpoints (operations-api.md, Partner settings). */
final class SettingsSchemas {

    /** {@code PUT /ops/v1/partners/:id/webhook}: {@code url} is required and may be null (delivery off). */
    static final ObjectSchema PUT = object()
            .field("url", new UrlSchema().nullable());

    /** Partner ids are the gateway's UUIDs; the path's id is webhook_settings' primary key. */
    static final int PARTNER_ID_MAX = 64;

    /** The path's partner id, reported with the body's issues under {@code ["partnerId"]}. */
    static final StringSchema PARTNER_ID = string().min(1).max(PARTNER_ID_MAX);

    private SettingsSchemas() {
    }
}
