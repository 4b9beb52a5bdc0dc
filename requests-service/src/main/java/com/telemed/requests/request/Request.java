package com.telemed.requests.request;

import com.telemed.common.error.ApiException;
import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.LockModeType;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * A prescription or consultation request (table {@code requests}, Flyway V4). Reads go through
 * {@link #findOwned} so another partner's request is never seen. Holds patient data: never log it.
 */
@Entity
@Table(name = "requests")
public class Request extends PanacheEntityBase {

    @Id
    @Column(name = "id", nullable = false, updatable = false)
    public UUID id;

    @Column(name = "partner_id", nullable = false, updatable = false)
    public String partnerId;

    @Column(name = "member_id", nullable = false, updatable = false)
    public UUID memberId;

    @Column(name = "member_name")
    public String memberName;

    @Column(name = "member_email")
    public String memberEmail;

    @Column(name = "member_dob")
    public String memberDob;

    @Column(name = "member_state")
    public String memberState;

    /** The stored status (see {@link RequestStatus#stored}). */
    @Column(name = "status", nullable = false)
    public String status;

    @Column(name = "consultation_open", nullable = false)
    public boolean consultationOpen;

    @Column(name = "case_notes")
    public String caseNotes;

    @Column(name = "survey_response_id")
    public String surveyResponseId;

    @Column(name = "pharmacy_send_at")
    public Instant pharmacySendAt;

    /**
     * Created with the legacy single-drug body, or its one item added by a request-level approval:
     * send-to-pharmacy treats the whole request as the item when the item id matches none.
     */
    @Column(name = "legacy_single_drug", nullable = false)
    public boolean legacySingleDrug;

    @Column(name = "idempotency_key", updatable = false)
    public String idempotencyKey;

    @Column(name = "provider_id")
    public String providerId;

    @Column(name = "prescriber_id")
    public UUID prescriberId;

    @Column(name = "drug_id")
    public String drugId;

    @Column(name = "drug_name")
    public String drugName;

    @Column(name = "dosage")
    public String dosage;

    @Column(name = "item_count", nullable = false)
    public int itemCount;

    @Column(name = "created_at", nullable = false, updatable = false)
    public Instant createdAt;

    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;

    public static Optional<Request> findOwned(String partnerId, UUID id) {
        return find("id = ?1 and partnerId = ?2", id, partnerId).firstResultOptional();
    }

    /** As {@link #findOwned}, holding the row lock until commit: every writer of a request takes it, so changes run in turn. */
    public static Optional<Request> lockOwned(String partnerId, UUID id) {
        return find("id = ?1 and partnerId = ?2", id, partnerId).withLock(LockModeType.PESSIMISTIC_WRITE).firstResultOptional();
    }

    public static Optional<Request> findByIdempotencyKey(String partnerId, String key) {
        return find("partnerId = ?1 and idempotencyKey = ?2", partnerId, key).firstResultOptional();
    }

    public boolean hasItems() {
        return itemCount > 0;
    }

    /** {@code 400} unless the stored status is pending: request-level decisions are taken on undecided requests only. */
    public void requirePending() {
        if (!RequestStatus.PENDING.equals(status)) {
            throw ApiException.badRequest("Request status is '" + status + "', expected 'pending'");
        }
    }

    /**
     * A prescriber acts: they become the assigned prescriber, and the deployment's provider
     * organisation is recorded if no prescriber acted before.
     */
    public void actedOnBy(UUID prescriber, String provider) {
        prescriberId = prescriber;
        if (providerId == null) {
            providerId = provider;
        }
    }

    /** After one of {@code items} was decided ({@code decided}): the stored status follows; any decision but a consultation closes an open one. */
    public void followItems(List<LineItem> items, String decided, Instant at) {
        status = RequestStatus.stored(items.stream().map(each -> each.status).toList());
        if (!ItemStatus.CALL_REQUESTED.equals(decided)) {
            consultationOpen = false;
        }
        updatedAt = at;
    }

    /** A prescriber approved a consultation request by choosing its drug now: its one item was just added. */
    public void itemAddedByPrescriber() {
        itemCount = 1;
        legacySingleDrug = true;
        consultationOpen = false;
    }

    /** Denied as a whole (legacy decision on a request without items). */
    public void denyWithoutItems(Instant at) {
        status = ItemStatus.DENIED;
        consultationOpen = false;
        updatedAt = at;
    }

    /** A consultation requested of a request without items. */
    public void openConsultation(Instant at) {
        consultationOpen = true;
        updatedAt = at;
    }

    public void touch(Instant at) {
        updatedAt = at;
    }
}
