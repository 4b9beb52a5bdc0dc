package com.telemed.requests.request;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.LockModeType;
import jakarta.persistence.Table;
import java.time.Instant;
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
}
