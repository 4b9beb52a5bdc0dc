package com.telemed.requests.fulfilment;

import com.telemed.requests.request.LineItem;
import com.telemed.requests.request.Request;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;

/**
 * What an approval means for fulfilment (partner-api.md, "Pharmacy transmission modes"), decided
 * in the approving transaction: on a deferred account nothing is due (the partner calls
 * send-to-pharmacy; {@code pharmacySendAt} is ignored); otherwise the item is due at the request's
 * {@code pharmacySendAt} when that is still ahead (scheduled), else now (automatic), and the
 * {@link FulfilmentDispatcher} is woken once the approval commits. The transmission itself never
 * runs inside the prescriber's transaction.
 */
@ApplicationScoped
public class Fulfilment {

    private final FulfilmentDispatcher dispatcher;

    public Fulfilment(FulfilmentDispatcher dispatcher) {
        this.dispatcher = dispatcher;
    }

    public void approved(Request request, LineItem item, Instant at) {
        if (FulfilmentSettings.deferred(request.partnerId)) {
            return;
        }
        boolean scheduled = request.pharmacySendAt != null && request.pharmacySendAt.isAfter(at);
        item.transmitDueAt = scheduled ? request.pharmacySendAt : at;
        if (!scheduled) {
            dispatcher.wakeOnCommit();
        }
    }
}
