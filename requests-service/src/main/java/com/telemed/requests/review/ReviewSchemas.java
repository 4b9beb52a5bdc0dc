package com.telemed.requests.review;

import static com.telemed.common.validation.Schemas.bool;
import static com.telemed.common.validation.Schemas.number;
import static com.telemed.common.validation.Schemas.object;
import static com.telemed.common.validation.Schemas.string;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.telemed.common.validation.Binding;
import com.telemed.common.validation.ObjectSchema;
import com.telemed.requests.prescriber.InPerson;
import com.telemed.requests.request.RequestSchemas;
import java.util.Optional;

/** The bodies of the prescriber console (operations-api.md, "Review"). */
final class ReviewSchemas {

    /** Directions printed on the label ({@code sigText}). */
    static final int DIRECTIONS_MAX = 2_000;
    /** A note's text, kept in history. */
    static final int NOTE_MAX = 10_000;
    /** {@code quantity} sent as text ("30 tablets"). */
    static final int QUANTITY_TEXT_MAX = 100;

    /**
     * {@code prescription}: what the prescriber signs. The record holds {@code daysSupply},
     * {@code refills} and {@code dosingIntervalDays} as ints (past 2147483647 they would wrap to
     * negative), the dose and quantity in jsonb and in {@code volumeMl}'s division.
     */
    static ObjectSchema prescription() {
        return object()
                .field("skuId", string().min(1).max(RequestSchemas.SKU_ID_MAX).optional())
                .field("quantity", new NumberOrString(RequestSchemas.amount(), QUANTITY_TEXT_MAX))
                .field("quantityUnits", string().max(RequestSchemas.UNIT_MAX).optional().nullable())
                .field("daysSupply", number().integer().min(1).max(Integer.MAX_VALUE))
                .field("directions", string().min(1).max(DIRECTIONS_MAX))
                .field("refills", number().integer().min(0).max(Integer.MAX_VALUE))
                .field("dispenseAsWritten", bool())
                .field("clinicalDose", object()
                        .field("value", RequestSchemas.amount())
                        .field("unit", string().min(1).max(RequestSchemas.UNIT_MAX)).optional().nullable())
                .field("dosingIntervalDays", number().integer().min(1).max(Integer.MAX_VALUE).optional().nullable());
    }

    static final ObjectSchema PRESCRIBER = object().field("prescriberId", string().min(1));

    static final ObjectSchema APPROVE_ITEM = object()
            .field("prescriberId", string().min(1))
            .field("prescription", prescription());

    static final ObjectSchema APPROVE_REQUEST = object()
            .field("prescriberId", string().min(1))
            .field("drugId", string().min(1).max(128).optional())
            .field("prescription", prescription());

    static final ObjectSchema WITH_REASON = object()
            .field("prescriberId", string().min(1))
            .field("reason", string().min(1).max(RequestSchemas.REASON_MAX).optional());

    static final ObjectSchema NOTE = object()
            .field("prescriberId", string().min(1))
            .field("text", string().min(1).max(NOTE_MAX));

    static final ObjectSchema DOSAGE = object()
            .field("prescriberId", string().min(1))
            .field("skuId", string().min(1).max(RequestSchemas.SKU_ID_MAX));

    static final ObjectSchema WITHDRAW = object().field("reason", string().min(1).max(RequestSchemas.REASON_MAX));

    /** A queue filter's value, checked like other ids: its text only, an unknown one matches nothing. */
    static final int FILTER_MAX = 100;

    static final ObjectSchema QUEUE_QUERY = object()
            .field("limit", number().coerce().integer().min(1).max(100).optional())
            .field("drugId", string().min(1).max(FILTER_MAX).optional())
            .field("partnerId", string().min(1).max(FILTER_MAX).optional())
            .field("prescriberId", string().min(1).max(FILTER_MAX).optional());

    private ReviewSchemas() {
    }

    /**
     * A prescriber's action's body read as the prescriber in person ({@code own}, {@link InPerson#prescriber()}) sends
     * it, then validated with {@code schema} and bound: their {@code prescriberId} filled in when left out (or null),
     * another one refused before the body is validated ({@code 403 Prescriber mismatch}). Anyone else's body is read as
     * sent (the operator key names the prescriber; the schema asks for it).
     */
    static <T> T actingInput(ObjectSchema schema, JsonNode body, Optional<String> own, Class<T> type) {
        return Binding.bind(schema, actedBy(body, own), type);
    }

    private static JsonNode actedBy(JsonNode body, Optional<String> own) {
        if (own.isEmpty() || !(body instanceof ObjectNode object)) {
            return body;
        }
        JsonNode sent = object.get("prescriberId");
        if (sent == null || sent.isNull()) {
            ObjectNode acted = object.deepCopy();
            acted.put("prescriberId", own.get());
            return acted;
        }
        if (sent.isTextual() && !InPerson.same(sent.asText(), own.get())) {
            throw InPerson.mismatch();
        }
        return body;
    }
}
