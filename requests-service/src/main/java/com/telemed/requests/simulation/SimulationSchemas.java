package com.telemed.requests.simulation;

import static com.telemed.common.validation.Schemas.enumOf;
import static com.telemed.common.validation.Schemas.object;
import static com.telemed.common.validation.Schemas.string;

import com.telemed.common.validation.ObjectSchema;
import com.telemed.requests.request.RequestSchemas;
import java.util.List;

/** The body of {@code POST /v1/sandbox/requests/:id/simulate} (partner-extensions.md, "Sandbox simulation"). */
final class SimulationSchemas {

    static final String APPROVE = "approve";
    static final String DENY = "deny";
    static final String REQUEST_CONSULTATION = "request_consultation";
    static final String BOOK = "book";
    static final String COMPLETE_CONSULTATION = "complete_consultation";
    static final String SHIP = "ship";
    static final String DELIVER = "deliver";
    static final String PRESCRIBER_MESSAGE = "prescriber_message";

    /** The contract's actions, in its table's order (the order an unknown action's issue lists them in). */
    static final List<String> ACTIONS = List.of(APPROVE, DENY, REQUEST_CONSULTATION, BOOK, COMPLETE_CONSULTATION, SHIP,
            DELIVER, PRESCRIBER_MESSAGE);

    /** As a pharmacy's update bounds its tracking number and carrier (fulfilment.PharmacyOperationsResource). */
    static final int SHIPPING_TEXT_MAX = 200;
    /** As a prescriber's message is bounded by messaging-service (its {@code text}). */
    static final int MESSAGE_MAX = 10_000;

    static final ObjectSchema SIMULATE = object()
            .field("action", enumOf(ACTIONS.toArray(String[]::new)))
            .field("itemId", string().min(1).max(RequestSchemas.ID_MAX).optional())
            .field("reason", string().min(1).max(RequestSchemas.REASON_MAX).optional())
            .field("trackingNumber", string().min(1).max(SHIPPING_TEXT_MAX).optional())
            .field("shipCarrier", string().min(1).max(SHIPPING_TEXT_MAX).optional())
            .field("text", string().min(1).max(MESSAGE_MAX).optional());

    private SimulationSchemas() {
    }
}
