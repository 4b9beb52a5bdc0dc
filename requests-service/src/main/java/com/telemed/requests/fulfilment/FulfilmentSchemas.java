package com.telemed.requests.fulfilment;

import static com.telemed.common.validation.Schemas.bool;
import static com.telemed.common.validation.Schemas.enumOf;
import static com.telemed.common.validation.Schemas.object;
import static com.telemed.common.validation.Schemas.string;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.telemed.common.validation.Binding;
import com.telemed.common.validation.Issues;
import com.telemed.common.validation.ObjectSchema;
import com.telemed.common.validation.StringSchema;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The fulfilment feature's inputs (operations-api.md, "Partner settings" and "Pharmacy integration"), Zod issues all
 * at once: a partner's fulfilment mode, a pharmacy's shipping update and the failed transmissions' {@code limit}.
 */
final class FulfilmentSchemas {

    /** Partner ids are the gateway's UUIDs; the setting's key is the path's id. */
    static final StringSchema PARTNER_ID = string().min(1).max(64);
    static final ObjectSchema MODE = object().field("mode", enumOf(FulfilmentSettings.AUTOMATIC, FulfilmentSettings.DEFERRED));

    /** Longer than any pharmacy's reference, label or tracking number. */
    static final int TEXT_MAX = 200;

    static final ObjectSchema SHIPPING_UPDATE = object()
            .field("pharmacyOrderId", string().min(1).max(TEXT_MAX))
            .field("status", string().min(1).max(TEXT_MAX))
            .field("trackingNumber", string().min(1).max(TEXT_MAX).optional().nullable())
            .field("shipCarrier", string().min(1).max(TEXT_MAX).optional().nullable())
            .field("shipped", bool().optional().nullable());

    static final Pattern LIMIT = Pattern.compile("^(100|[1-9][0-9]?)$");
    static final String LIMIT_MESSAGE = "limit must be an integer from 1 to 100";
    static final int DEFAULT_LIMIT = 50;
    static final ObjectSchema FAILED_LIST = object().field("limit", string().regex(LIMIT, LIMIT_MESSAGE).optional());

    private FulfilmentSchemas() {
    }

    /** {@code GET /ops/v1/partners/:id/fulfilment}: the path's partner id (an issue at {@code ["partnerId"]}). */
    static String partnerId(String partnerId) {
        Issues issues = new Issues();
        PARTNER_ID.validate(TextNode.valueOf(partnerId), List.of("partnerId"), issues);
        issues.throwIfAny();
        return partnerId;
    }

    /**
     * {@code PUT /ops/v1/partners/:id/fulfilment}: the path's partner id and the body's issues in one answer, then the
     * body bound. No body is {@code {}} (as {@code Binding.bind} takes it): refused for its missing mode, never stored
     * as null.
     */
    static FulfilmentModeInput modeInput(String partnerId, JsonNode body) {
        JsonNode sent = body == null || body.isNull() ? JsonNodeFactory.instance.objectNode() : body;
        Issues issues = new Issues();
        PARTNER_ID.validate(TextNode.valueOf(partnerId), List.of("partnerId"), issues);
        MODE.validate(sent, List.of(), issues);
        issues.throwIfAny();
        return Binding.bindValidated(sent, FulfilmentModeInput.class);
    }

    /** {@code GET /ops/v1/pharmacy/failed-transmissions?limit=}: 1 to 100 as sent, 50 when not sent. */
    static int failedLimit(String limit) {
        ObjectNode query = JsonNodeFactory.instance.objectNode();
        if (limit != null) {
            query.put("limit", limit);
        }
        FAILED_LIST.validate(query);
        return limit == null ? DEFAULT_LIMIT : Integer.parseInt(limit);
    }
}
