package com.telemed.requests.request;

import com.telemed.common.error.ApiException;
import com.telemed.requests.catalogue.DrugLookup;
import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.UUID;

/** One drug of a request (table {@code line_items}); its status is the source of truth for progress. */
@Entity
@Table(name = "line_items")
public class LineItem extends PanacheEntityBase {

    @Id
    @Column(name = "id", nullable = false, updatable = false)
    public UUID id;

    @Column(name = "request_id", nullable = false, updatable = false)
    public UUID requestId;

    @Column(name = "partner_id", nullable = false, updatable = false)
    public String partnerId;

    @Column(name = "position", nullable = false, updatable = false)
    public int position;

    @Column(name = "request_created_at", nullable = false, updatable = false)
    public Instant requestCreatedAt;

    @Column(name = "drug_id")
    public String drugId;

    @Column(name = "drug_name")
    public String drugName;

    /** The legacy dosage label that was sent, if any. */
    @Column(name = "dosage")
    public String dosage;

    @Column(name = "requested_sku_id")
    public String requestedSkuId;

    @Column(name = "requested_sku")
    public String requestedSku;

    @Column(name = "requested_dose_value")
    public BigDecimal requestedDoseValue;

    @Column(name = "requested_dose_unit")
    public String requestedDoseUnit;

    @Column(name = "selected_sku_id")
    public String selectedSkuId;

    @Column(name = "status", nullable = false)
    public String status;

    @Column(name = "prescriber_id")
    public UUID prescriberId;

    @Column(name = "pharmacy_id")
    public String pharmacyId;

    @Column(name = "pharmacy_method")
    public String pharmacyMethod;

    @Column(name = "pharmacy_sent", nullable = false)
    public boolean pharmacySent;

    @Column(name = "pharmacy_sent_at")
    public Instant pharmacySentAt;

    @Column(name = "pharmacy_order_id")
    public String pharmacyOrderId;

    @Column(name = "tracking_number")
    public String trackingNumber;

    @Column(name = "ship_carrier")
    public String shipCarrier;

    @Column(name = "delivery_status")
    public String deliveryStatus;

    /** When the fulfilment dispatcher should transmit it; null when nothing is due (fulfilment package). */
    @Column(name = "transmit_due_at")
    public Instant transmitDueAt;

    @Column(name = "transmission_claim")
    public UUID transmissionClaim;

    @Column(name = "transmission_claimed_until")
    public Instant transmissionClaimedUntil;

    /** The last failed or held transmission's answer, for operators; never shown to partners. */
    @Column(name = "transmission_error")
    public String transmissionError;

    @Column(name = "transmission_failed_at")
    public Instant transmissionFailedAt;

    /** The first pharmacy update with {@code shipped: true}. */
    @Column(name = "shipped_at")
    public Instant shippedAt;

    @Column(name = "created_at", nullable = false, updatable = false)
    public Instant createdAt;

    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;

    /**
     * A new pending item of {@code request} for {@code drug}, filled by the drug's pharmacy; the
     * caller completes and persists it (one INSERT).
     * The request's item (one per request: position 0) whatever made it, the partner's create or a
     * prescriber approving a consultation request.
     */
    public static LineItem pending(Request request, String drugId, DrugLookup drug, Instant at) {
        LineItem item = new LineItem();
        item.id = UUID.randomUUID();
        item.requestId = request.id;
        item.partnerId = request.partnerId;
        item.position = 0;
        item.requestCreatedAt = request.createdAt;
        item.drugId = drugId;
        item.drugName = drug.name();
        item.status = ItemStatus.PENDING;
        item.pharmacyId = drug.pharmacy() == null ? null : drug.pharmacy().id();
        item.pharmacyMethod = drug.pharmacy() == null ? null : drug.pharmacy().method();
        item.createdAt = at;
        item.updatedAt = at;
        return item;
    }

    public static List<LineItem> ofRequest(UUID requestId) {
        return list("requestId = ?1 order by position", requestId);
    }

    /**
     * The request's items under their row locks: a writer that may race the fulfilment dispatcher
     * (which claims items by their rows alone) reads the claim it would otherwise overwrite.
     */
    public static List<LineItem> lockOfRequest(UUID requestId) {
        return find("requestId = ?1 order by position", requestId).withLock(jakarta.persistence.LockModeType.PESSIMISTIC_WRITE).list();
    }

    public static List<LineItem> ofRequests(Collection<UUID> requestIds) {
        return requestIds.isEmpty() ? List.of() : list("requestId in ?1 order by requestId, position", requestIds);
    }

    /** {@code 400} unless a prescriber may still decide it: pending, or pending underneath a requested consultation. */
    public void requireUndecided() {
        if (!ItemStatus.undecided(status)) {
            throw ApiException.badRequest("Item status is '" + status + "', expected 'pending' or 'call_requested'");
        }
    }

    /** {@code 400} unless pending: a consultation is requested of a pending item only. */
    public void requirePending() {
        if (!ItemStatus.PENDING.equals(status)) {
            throw ApiException.badRequest("Item status is '" + status + "', expected 'pending'");
        }
    }

    /** A prescriber's decision (approved, denied, call requested); the request follows ({@link Request#followItems}). */
    public void decide(String decided, UUID prescriber, Instant at) {
        status = decided;
        prescriberId = prescriber;
        updatedAt = at;
    }

    /** The SKU the prescriber chose to sign, before approval. */
    public void selectSku(String skuId, Instant at) {
        selectedSkuId = skuId;
        updatedAt = at;
    }

    /** Another sender (a call, a replica's dispatcher) holds an unexpired claim on transmitting it. */
    public boolean transmissionInFlight(Instant now) {
        return transmissionClaimedUntil != null && transmissionClaimedUntil.isAfter(now);
    }

    /** Only the holder of {@code claim} transmits it until {@code until}. */
    public void claimTransmission(UUID claim, Instant until) {
        transmissionClaim = claim;
        transmissionClaimedUntil = until;
    }

    public void releaseTransmission() {
        transmissionClaim = null;
        transmissionClaimedUntil = null;
    }

    /** The pharmacy accepted its order: transmitted for good, nothing more is due. */
    public void sent(String orderId, Instant at) {
        pharmacySent = true;
        pharmacySentAt = at;
        pharmacyOrderId = orderId;
        transmitDueAt = null;
        transmissionError = null;
        transmissionFailedAt = null;
        updatedAt = at;
    }

    /** Transmitted: sent to the pharmacy or given an order reference by it; never withdrawn through the API. */
    public boolean transmitted() {
        return pharmacySent || pharmacyOrderId != null;
    }
}
