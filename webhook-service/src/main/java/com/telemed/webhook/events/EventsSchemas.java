package com.telemed.webhook.events;

import static com.telemed.common.validation.Schemas.enumOf;
import static com.telemed.common.validation.Schemas.number;
import static com.telemed.common.validation.Schemas.object;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.telemed.common.validation.EnumSchema;
import com.telemed.common.validation.Issues;
import com.telemed.common.validation.NumberSchema;
import com.telemed.common.validation.ObjectSchema;
import java.util.Arrays;
import java.util.List;

/** The query of {@code GET /v1/events} (partner-extensions.md, Events), validated as Zod would. */
public final class EventsSchemas {

    static final int DEFAULT_LIMIT = 20;

    /**
     * The event names a partner can receive (partner-api.md, Event kinds) and {@code webhook.test}
     * (partner-extensions.md): what {@code types} may name.
     */
    /** The type of the event {@code POST /v1/webhooks/test} sends (testwebhook.WebhookTestResource). */
    public static final String TEST_EVENT = "webhook.test";

    static final List<String> TYPES = List.of("item.approved", "item.denied", "item.consultation_requested",
            "item.canceled", "request.all_approved", "request.all_denied", "request.all_resolved",
            "request.all_canceled", "request.approved", "request.denied", "request.consultation_requested",
            "item.shipped", "delivery.update", "message.new", "message.system", "message.handoff",
            "appointment.consultation_requested", "appointment.booked", "appointment.rescheduled",
            "appointment.cancelled", "appointment.reminder", "survey.completed", TEST_EVENT);

    private static final EnumSchema TYPE = enumOf(TYPES.toArray(String[]::new));

    /** {@code limit} 1 to 100, coerced from the query string. */
    static final ObjectSchema QUERY = object()
            .field("limit", number().coerce().integer().min(1).max(100).optional());

    /** A page's query as bound: {@code types} null for every type. */
    record Query(String after, List<String> types, int limit) {
    }

    private EventsSchemas() {
    }

    /** Every issue of the query at once ({@code 400} issues), else the bound query. */
    static Query query(String after, String types, String limit) {
        ObjectNode query = JsonNodeFactory.instance.objectNode();
        if (limit != null) {
            query.put("limit", limit);
        }
        Issues issues = new Issues();
        QUERY.validate(query, List.of(), issues);
        // Each comma-separated name is one of TYPES, reported at ["types"] (the parameter, as the contract says).
        List<String> names = types == null ? null : Arrays.stream(types.split(",", -1)).map(String::strip).distinct().toList();
        if (names != null) {
            names.forEach(name -> TYPE.validate(TextNode.valueOf(name), List.of("types"), issues));
        }
        issues.throwIfAny();
        return new Query(after, names, query.has("limit") ? NumberSchema.read(query.get("limit")).intValueExact() : DEFAULT_LIMIT);
    }
}
