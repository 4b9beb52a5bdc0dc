package com.telemed.webhook.settings;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.common.validation.Issues;
import com.telemed.common.validation.Schema;
import com.telemed.common.validation.Schemas;
import com.telemed.common.validation.StringSchema;
import com.telemed.webhook.address.WebhookUrls;
import java.util.List;
import java.util.Map;

/**
 * Zod's {@code z.string().url()} narrowed to what the contract accepts: an absolute http or https
 * URL with a host. Anything else is Zod's url issue ({@code invalid_string}, {@code validation: url},
 * {@code Invalid url}).
 */
final class UrlSchema extends Schema<UrlSchema> {

    /** Longer URLs are refused by common browsers and servers alike; the column holds any text. */
    static final int MAX_LENGTH = 2048;

    private static final StringSchema LENGTH = Schemas.string().max(MAX_LENGTH);

    @Override
    protected String expected() {
        return "string";
    }

    @Override
    protected boolean check(JsonNode value, List<Object> path, Issues issues) {
        if (!value.isTextual()) {
            issues.invalidType(path, expected(), Issues.typeOf(value));
            return false;
        }
        // Zod's .max(2048).url(): both checks run, each failure is an issue.
        LENGTH.validate(value, path, issues);
        if (WebhookUrls.parse(value.textValue()).isEmpty()) {
            issues.add("invalid_string", Map.of("validation", "url"), path, "Invalid url");
        }
        return true;
    }

}
