package com.telemed.requests.review;

import static com.telemed.common.validation.Schemas.bool;
import static com.telemed.common.validation.Schemas.number;
import static com.telemed.common.validation.Schemas.object;
import static com.telemed.common.validation.Schemas.string;

import com.telemed.common.validation.ObjectSchema;

/** The bodies of the prescriber console (operations-api.md, "Review"). */
final class ReviewSchemas {

    /** {@code prescription}: what the prescriber signs. */
    static ObjectSchema prescription() {
        return object()
                .field("skuId", string().min(1).optional())
                .field("quantity", new NumberOrString())
                .field("quantityUnits", string().optional().nullable())
                .field("daysSupply", number().integer().min(1))
                .field("directions", string().min(1))
                .field("refills", number().integer().min(0))
                .field("dispenseAsWritten", bool())
                .field("clinicalDose", object().field("value", number()).field("unit", string().min(1)).optional().nullable())
                .field("dosingIntervalDays", number().integer().min(1).optional().nullable());
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
            .field("reason", string().min(1).optional());

    static final ObjectSchema NOTE = object()
            .field("prescriberId", string().min(1))
            .field("text", string().min(1));

    static final ObjectSchema DOSAGE = object()
            .field("prescriberId", string().min(1))
            .field("skuId", string().min(1));

    static final ObjectSchema WITHDRAW = object().field("reason", string().min(1));

    static final ObjectSchema QUEUE_QUERY = object()
            .field("limit", number().coerce().integer().min(1).max(100).optional());

    private ReviewSchemas() {
    }
}
