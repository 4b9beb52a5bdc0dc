package com.telemed.requests.request;

import com.telemed.common.outbox.Outbox;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.List;

/**
 * What the request feature publishes on {@code care.events} ({@link RequestEnvelopes}: key = request id, written to
 * the outbox in the transaction of the change; its writers hold the request's row lock, so one request's events stay
 * in order): a cancelled item and the aggregate of a request's items. The prescriber's decisions publish through
 * {@code review.ReviewEvents}, appointments through {@code appointment.AppointmentEvents}, deliveries through
 * {@code fulfilment.FulfilmentEvents} (issue #43). {@code webhook} is exactly the partner payload of partner-api.md
 * ("Payloads"); {@code data} is for internal consumers (messaging posts system messages, billing starts billing on
 * approvals): ids and statuses, no patient data.
 */
@ApplicationScoped
public class RequestEvents {

    public static final String TOPIC = "care.events";

    public static final String ITEM_CANCELED = "item.canceled";
    public static final String ALL_APPROVED = "request.all_approved";
    public static final String ALL_DENIED = "request.all_denied";
    public static final String ALL_RESOLVED = "request.all_resolved";
    public static final String ALL_CANCELED = "request.all_canceled";

    private final Outbox outbox;

    public RequestEvents(Outbox outbox) {
        this.outbox = outbox;
    }

    /** {@code item.canceled}: {@code prescriptionName} is the drug id, as the contract has it. */
    public void itemCanceled(Request request, LineItem item, Instant at) {
        RequestEnvelopes.item(outbox, ITEM_CANCELED, request, item, null, at);
    }

    /** The aggregate event after a cancel, when it holds ({@link RequestEnvelopes#aggregateIfDecided}). */
    public void aggregateIfDecided(Request request, List<LineItem> items, Instant at) {
        RequestEnvelopes.aggregateIfDecided(outbox, request, items, null, at);
    }
}
