package com.telemed.requests.prescription;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

/**
 * A prescription record (table {@code prescription_records}): the clinical snapshot taken at
 * signing is written once ({@code clinical} is not updatable) and corrections would create a new
 * record pointing back through {@code supersedesId}. Only the status and fulfilment stamps move.
 *
 * <p>{@code updatable = false} only keeps this code from writing the frozen columns; the database
 * refuses it from anyone ({@code V10__record_integrity.sql}: the trigger
 * {@code prescription_records_signed} rejects a change of a frozen column and a status move the
 * record status table does not allow). What the trigger cannot see, a change made with it
 * disabled or below it, {@link #digest} does: the SHA-256 of the frozen fields taken at signing,
 * which {@link #intact()} compares with the record as it reads now.
 */
@Entity
@Table(name = "prescription_records")
public class PrescriptionRecord extends PanacheEntityBase {

    public static final String ISSUED = "issued";
    public static final String SENT_TO_PHARMACY = "sent_to_pharmacy";
    public static final String VOIDED = "voided";

    @Id
    @Column(name = "id", nullable = false, updatable = false)
    public UUID id;

    @Column(name = "partner_id", nullable = false, updatable = false)
    public String partnerId;

    @Column(name = "request_id", nullable = false, updatable = false)
    public UUID requestId;

    @Column(name = "line_item_id", updatable = false)
    public UUID lineItemId;

    @Column(name = "member_id", nullable = false, updatable = false)
    public UUID memberId;

    @Column(name = "prescriber_id", nullable = false, updatable = false)
    public UUID prescriberId;

    @Column(name = "pharmacy_id", updatable = false)
    public String pharmacyId;

    @Column(name = "drug_id", updatable = false)
    public String drugId;

    @Column(name = "supersedes_id", updatable = false)
    public UUID supersedesId;

    @Column(name = "renewal_of_id", updatable = false)
    public UUID renewalOfId;

    @JdbcTypeCode(SqlTypes.JSON)
    @Column(name = "clinical", nullable = false, updatable = false)
    public ClinicalSnapshot clinical;

    @Column(name = "status", nullable = false)
    public String status;

    @Column(name = "void_reason")
    public String voidReason;

    @Column(name = "pharmacy_order_id")
    public String pharmacyOrderId;

    @Column(name = "pharmacy_product_id")
    public Integer pharmacyProductId;

    @Column(name = "issued_at", nullable = false, updatable = false)
    public Instant issuedAt;

    /** {@code YYYY-MM-DD}. */
    @Column(name = "expiration_date", updatable = false)
    public String expirationDate;

    @Column(name = "sent_to_pharmacy_at")
    public Instant sentToPharmacyAt;

    @Column(name = "filled_at")
    public Instant filledAt;

    @Column(name = "cancelled_at")
    public Instant cancelledAt;

    @Column(name = "voided_at")
    public Instant voidedAt;

    @Column(name = "created_at", nullable = false, updatable = false)
    public Instant createdAt;

    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;

    /**
     * {@link RecordDigest#of} at signing; internal, never on the partner wire. Null only on records
     * minted before it existed (V10), which {@link #intact()} therefore cannot vouch for.
     */
    @Column(name = "digest", updatable = false)
    public String digest;

    /** The item's record as it stands: the newest not voided (index {@code prescription_records_item_idx}). */
    public static java.util.Optional<PrescriptionRecord> currentFor(UUID lineItemId) {
        return find("lineItemId = ?1 and status <> ?2 order by createdAt desc, id desc", lineItemId, VOIDED)
                .firstResultOptional();
    }

    public static List<PrescriptionRecord> ofRequest(UUID requestId) {
        return list("requestId = ?1 order by createdAt, id", requestId);
    }

    /**
     * Whether the frozen fields are still those signed: the stored digest equals the digest of the
     * record as it is now. False when there is no digest (a record older than V10).
     */
    public boolean intact() {
        return digest != null && digest.equals(RecordDigest.of(this));
    }

    /** The record went to the pharmacy, which answered with its order reference. */
    public void sentToPharmacy(String pharmacyOrderId, Instant at) {
        status = SENT_TO_PHARMACY;
        this.pharmacyOrderId = pharmacyOrderId;
        sentToPharmacyAt = at;
        updatedAt = at;
    }

    public void voidFor(String reason, Instant at) {
        status = VOIDED;
        voidReason = reason;
        voidedAt = at;
        updatedAt = at;
    }
}
