package com.telemed.webhook.settings;

import static com.telemed.common.validation.Schemas.object;

import com.telemed.common.validation.ObjectSchema;

/** Zod-style schemas of the webhook settings endpoints (operations-api.md, Partner settings). */
final class SettingsSchemas {

    /** {@code PUT /ops/v1/partners/:id/webhook}: {@code url} is required and may be null (delivery off). */
    static final ObjectSchema PUT = object()
            .field("url", new UrlSchema().nullable());

    private SettingsSchemas() {
    }
}
