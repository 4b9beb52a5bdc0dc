package com.telemed.requests.fulfilment;

import com.telemed.common.audit.AuditTrail;
import com.telemed.common.error.ApiException;
import com.telemed.common.id.Ids;
import com.telemed.common.json.Timestamps;
import com.telemed.requests.member.MemberRecord;
import com.telemed.requests.member.MembersClient;
import com.telemed.requests.messaging.MessagingClient;
import com.telemed.requests.pharmacy.PharmacyAnswer;
import com.telemed.requests.pharmacy.PharmacyConfig;
import com.telemed.requests.pharmacy.PharmacyOrder;
import com.telemed.requests.pharmacy.Pharmacies;
import com.telemed.requests.prescription.PrescriptionRecord;
import com.telemed.requests.request.HistoryEntry;
import com.telemed.requests.request.ItemStatus;
import com.telemed.requests.request.LineItem;
import com.telemed.requests.request.Request;
import com.telemed.requests.request.RequestQueries;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * Transmitting one approved item to its pharmacy, whoever asks: the partner's
 * {@code send-to-pharmacy}, an operator's resend, or the {@link FulfilmentDispatcher} for automatic
 * and scheduled items. Three steps, none holding a connection or lock across a remote call:
 * <ol>
 * <li>a short transaction claims the item (request and item row locks): the checks that answer
 * {@code 400}, then a claim with a lease, so no other sender (another call, another replica's
 * dispatcher) transmits it meanwhile;</li>
 * <li>with no transaction open, the {@link Holds} are checked (the record and its digest, the pharmacy,
 * members-service for the member's status and address, messaging-service for an unread patient message,
 * the deployment's integration) and the order is posted;</li>
 * <li>a short transaction records the outcome: sent (the item, its record, its history), held
 * (the dispatcher tries again after {@code holdRetry}), or failed (recorded for operators).</li>
 * </ol>
 * Nothing is marked sent unless the pharmacy accepted the order. Never logs patient data.
 */
@ApplicationScoped
public class Transmissions {

    static final String CANNOT_SEND = "Cannot send to pharmacy: item status is '%s', expected 'approved'";
    static final String ALREADY_SENT = "This item has already been sent to pharmacy";
    static final String ITEM_NOT_FOUND = "Line item not found";
    static final String SANDBOX_NOTE = "Sandbox deployment: the order went to the sandbox pharmacy";

    private static final Logger LOG = Logger.getLogger(Transmissions.class);

    /** Who asked; decides the history's {@code by} and what a hold or failure does to the item's schedule. */
    enum Origin { PARTNER, OPERATOR, DISPATCHER }

    /** An item claimed for transmission, with everything the order needs read in the claiming transaction. */
    record Claimed(UUID claim, Origin origin, String by, String partnerId, UUID requestId, UUID itemId, UUID memberId,
                   String drugId, String method, String pharmacyId, PrescriptionRecordView record) {
    }

    /** The record's frozen fields as read at claim time, and whether they still match their digest. */
    record PrescriptionRecordView(PharmacyOrder.Prescription prescription, boolean intact) {
    }

    /** What an attempt came to. */
    sealed interface Result {
    }

    record Sent(String pharmacyOrderId) implements Result {
    }

    record Refused(Refusal refusal) implements Result {
    }

    private final Holds holds;
    private final Pharmacies pharmacies;
    private final boolean sandbox;
    private final FulfilmentConfig config;
    private final TransmissionMetrics metrics;
    private final AuditTrail audit;

    public Transmissions(MembersClient members, MessagingClient messaging, Pharmacies pharmacies, PharmacyConfig pharmacy,
                         FulfilmentConfig config, TransmissionMetrics metrics, AuditTrail audit) {
        this.holds = new Holds(new Holds.Neighbours() {
            @Override
            public Optional<MemberRecord> member(String partnerId, UUID memberId) {
                return members.find(partnerId, memberId.toString());
            }

            @Override
            public boolean unreadFromPatientSince(String partnerId, UUID memberId, Instant since) {
                return messaging.unreadFromPatientSince(partnerId, memberId, since);
            }
        });
        this.pharmacies = pharmacies;
        this.sandbox = pharmacy.sandbox();
        this.config = config;
        this.metrics = metrics;
        this.audit = audit;
    }

    /** {@code POST /v1/requests/:id/items/:itemId/send-to-pharmacy}: the partner's own request only. */
    public SendOutcome sendForPartner(String partnerId, String requestId, String itemId) {
        return send(Origin.PARTNER, HistoryEntry.partner(partnerId), partnerId, requestId, itemId);
    }

    /** The operator's resend ({@code POST /ops/v1/requests/:id/items/:itemId/send-to-pharmacy}): any partner's request. */
    public SendOutcome sendForOperator(String requestId, String itemId) {
        return send(Origin.OPERATOR, HistoryEntry.SERVICE, null, requestId, itemId);
    }

    private SendOutcome send(Origin origin, String by, String partnerId, String requestId, String itemId) {
        Claim claim = QuarkusTransaction.requiringNew().call(() -> {
            Claim claimed = claim(origin, by, partnerId, requestId, itemId);
            if (origin == Origin.OPERATOR && claimed.claimed() != null) {
                // The operator's act is the claim: audited with it (the transmission's outcome is the item's history).
                audit.record("item.send_to_pharmacy", "item", claimed.claimed().itemId().toString(), claimed.claimed().partnerId());
            }
            return claimed;
        });
        if (claim.inProgress() != null) {
            return SendOutcome.refused(claim.inProgress(), new Refusal(Refusal.Code.TRANSMISSION_IN_PROGRESS,
                    "another transmission of this item is in progress"));
        }
        return transmit(claim.claimed());
    }

    /** The dispatcher's part: the item it claimed ({@code claim}), unless it is no longer due. */
    void transmitDue(UUID itemId, UUID claim) {
        Claimed claimed = QuarkusTransaction.requiringNew().call(() -> claimedByDispatcher(itemId, claim));
        if (claimed != null) {
            transmit(claimed);
        }
    }

    private SendOutcome transmit(Claimed claimed) {
        Result result;
        try {
            result = attempt(claimed);
        } catch (RuntimeException e) {
            release(claimed);
            throw e;
        }
        QuarkusTransaction.requiringNew().run(() -> finish(claimed, result, Timestamps.now()));
        String method = Pharmacies.methodOf(claimed.method());
        if (result instanceof Refused refused) {
            metrics.refused(method, refused.refusal());
            return SendOutcome.refused(method, refused.refusal());
        }
        metrics.accepted(method);
        return SendOutcome.sent(method, sandbox && !Pharmacies.SANDBOX.equals(method) ? List.of(SANDBOX_NOTE) : List.of());
    }

    /** A claim, or the method of an item another sender has in flight. */
    private record Claim(Claimed claimed, String inProgress) {
    }

    private Claim claim(Origin origin, String by, String partnerId, String requestId, String itemId) {
        Optional<UUID> id = Ids.uuid(requestId);
        Request request = (partnerId == null
                ? id.map(each -> Request.<Request>findById(each, LockModeType.PESSIMISTIC_WRITE))
                : id.flatMap(each -> Request.lockOwned(partnerId, each)))
                .orElseThrow(() -> ApiException.notFound(RequestQueries.NOT_FOUND));
        List<LineItem> items = LineItem.lockOfRequest(request.id);
        LineItem item = Ids.uuid(itemId).flatMap(each -> items.stream().filter(candidate -> candidate.id.equals(each)).findFirst())
                .or(() -> request.legacySingleDrug && items.size() == 1 ? Optional.of(items.get(0)) : Optional.empty())
                .orElseThrow(() -> ApiException.notFound(ITEM_NOT_FOUND));
        if (!sendable(item.status)) {
            throw ApiException.badRequest(CANNOT_SEND.formatted(item.status));
        }
        if (item.pharmacySent) {
            throw ApiException.badRequest(ALREADY_SENT);
        }
        Instant now = Timestamps.now();
        if (item.transmissionInFlight(now)) {
            return new Claim(null, Pharmacies.methodOf(item.pharmacyMethod));
        }
        UUID claim = UUID.randomUUID();
        item.claimTransmission(claim, now.plus(config.claimLease()));
        return new Claim(claimed(claim, origin, by, request, item), null);
    }

    /** In the dispatcher's claimed item: gone, sent, cancelled or now on a deferred account means nothing is due any more. */
    private Claimed claimedByDispatcher(UUID itemId, UUID claim) {
        LineItem item = LineItem.findById(itemId, LockModeType.PESSIMISTIC_WRITE);
        if (item == null || !claim.equals(item.transmissionClaim)) {
            return null;
        }
        Request request = Request.findById(item.requestId);
        if (item.pharmacySent || !sendable(item.status) || FulfilmentSettings.deferred(request.partnerId)) {
            item.transmitDueAt = null;
            item.releaseTransmission();
            return null;
        }
        return claimed(claim, Origin.DISPATCHER, HistoryEntry.SERVICE, request, item);
    }

    private static Claimed claimed(UUID claim, Origin origin, String by, Request request, LineItem item) {
        PrescriptionRecord record = PrescriptionRecord.currentFor(item.id).orElse(null);
        PrescriptionRecordView view = record == null ? null : new PrescriptionRecordView(
                new PharmacyOrder.Prescription(record.id, record.digest, record.drugId, record.prescriberId, record.issuedAt,
                        record.expirationDate, record.clinical),
                record.intact());
        return new Claimed(claim, origin, by, request.partnerId, request.id, item.id, request.memberId, item.drugId,
                item.pharmacyMethod, item.pharmacyId, view);
    }

    /** Approved, or completed (an operator's terminal status, equivalent to approved for fulfilment). */
    static boolean sendable(String status) {
        return ItemStatus.APPROVED.equals(status) || ItemStatus.COMPLETED.equals(status);
    }

    /** The holds ({@link Holds}), then the pharmacy. No transaction is open. */
    private Result attempt(Claimed claimed) {
        Holds.Verdict verdict = holds.check(claimed, pharmacies.route(claimed.method()));
        if (verdict instanceof Holds.Held held) {
            return new Refused(held.refusal());
        }
        Holds.Clear clear = (Holds.Clear) verdict;
        PharmacyAnswer answer = clear.adapter().transmit(order(claimed, clear.member()));
        if (answer instanceof PharmacyAnswer.Accepted accepted) {
            return new Sent(accepted.pharmacyOrderId());
        }
        if (answer instanceof PharmacyAnswer.Rejected rejected) {
            return refused(Refusal.Code.PHARMACY_REJECTED, rejected.reason());
        }
        return refused(Refusal.Code.PHARMACY_UNAVAILABLE, ((PharmacyAnswer.Unavailable) answer).reason());
    }

    /** Ships to the member's shipping address, else the home address. */
    private static PharmacyOrder order(Claimed claimed, MemberRecord member) {
        var shipTo = member.shippingAddress() != null && !member.shippingAddress().isNull() ? member.shippingAddress() : member.address();
        return new PharmacyOrder(claimed.itemId(), claimed.requestId(), Pharmacies.methodOf(claimed.method()), claimed.pharmacyId(),
                claimed.record().prescription(),
                new PharmacyOrder.Patient(member.id(), member.firstName(), member.lastName(), member.dateOfBirth(),
                        member.gender(), member.email(), member.phone()),
                shipTo);
    }

    private static Refused refused(Refusal.Code code, String reason) {
        return new Refused(new Refusal(code, reason));
    }

    /** Records the outcome under the request's and the item's row locks. */
    private void finish(Claimed claimed, Result result, Instant now) {
        Request request = Request.findById(claimed.requestId(), LockModeType.PESSIMISTIC_WRITE);
        LineItem item = request == null ? null : LineItem.findById(claimed.itemId(), LockModeType.PESSIMISTIC_WRITE);
        if (item == null) {
            return;
        }
        boolean ours = claimed.claim().equals(item.transmissionClaim);
        if (result instanceof Sent sent) {
            if (!item.pharmacySent) {
                item.sent(sent.pharmacyOrderId(), now);
                PrescriptionRecord record = PrescriptionRecord.findById(claimed.record().prescription().recordId());
                record.sentToPharmacy(sent.pharmacyOrderId(), now);
                request.touch(now);
                HistoryEntry.record(request.id, item.id, "sent_to_pharmacy", claimed.by(), null, now);
            } else {
                LOG.warnf("Item %s was accepted by its pharmacy again (order %s) after another sender had sent it",
                        item.id, sent.pharmacyOrderId());
            }
            if (ours) {
                item.releaseTransmission();
            }
            return;
        }
        if (!ours) {
            return;
        }
        Refusal refusal = ((Refused) result).refusal();
        item.releaseTransmission();
        item.transmissionError = refusal.text();
        if (refusal.hold()) {
            if (claimed.origin() == Origin.DISPATCHER) {
                item.transmitDueAt = now.plus(config.holdRetry());
            }
            return;
        }
        // A failure waits for a person, whoever met it: a scheduled time still ahead would only fail again.
        item.transmissionFailedAt = now;
        item.transmitDueAt = null;
        HistoryEntry.record(request.id, item.id, "transmission_failed", claimed.by(), refusal.text(), now);
        LOG.warnf("Transmission of item %s failed: %s", item.id, refusal.code().wire());
    }

    /** After an unexpected error: the claim goes, so the next sender need not wait for the lease. */
    private void release(Claimed claimed) {
        try {
            QuarkusTransaction.requiringNew().run(() -> {
                LineItem item = LineItem.findById(claimed.itemId(), LockModeType.PESSIMISTIC_WRITE);
                if (item != null && claimed.claim().equals(item.transmissionClaim)) {
                    item.releaseTransmission();
                }
            });
        } catch (RuntimeException e) {
            LOG.warnf("Claim on item %s could not be released (%s); it lapses with its lease",
                    claimed.itemId(), e.getClass().getSimpleName());
        }
    }
}
