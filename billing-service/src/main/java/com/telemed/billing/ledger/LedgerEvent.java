package com.telemed.billing.ledger;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.time.Instant;
import java.util.Set;
import java.util.UUID;

/**
 * What the ledger reads of an event envelope ({@code care.events} from requests-service,
 * {@code member.events} from members-service): the id it deduplicates on, the type, the partner,
 * when it happened, whom it is about and, for member events, the internal data members-service
 * writes for billing ({@code status}, {@code firstName}, {@code lastName}, {@code email},
 * {@code newStatus}, {@code statusChangeId}). Never the partner's webhook payload.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record LedgerEvent(UUID id, String type, String partnerId, Instant occurredAt, Subject subject, Data data) {

    public static final String ITEM_APPROVED = "item.approved";
    /** A legacy single-drug request approved at request level. */
    public static final String REQUEST_APPROVED = "request.approved";
    public static final String MEMBER_CREATED = "member.created";
    public static final String MEMBER_UPDATED = "member.updated";
    public static final String MEMBER_STATUS_CHANGED = "member.status_changed";
    public static final String MEMBER_DELETED = "member.deleted";

    private static final Set<String> APPROVALS = Set.of(ITEM_APPROVED, REQUEST_APPROVED);

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Subject(UUID memberId) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Data(String status, String firstName, String lastName, String email, String newStatus, UUID statusChangeId) {
    }

    public boolean isApproval() {
        return APPROVALS.contains(type);
    }

    /**
     * Whether the ledger acts on this event: an approval or a member event, with the keys every
     * merge needs (a member event's status change also needs its status and id).
     */
    public boolean concernsLedger() {
        if (id == null || partnerId == null || partnerId.isBlank() || occurredAt == null || subject == null
                || subject.memberId() == null || type == null) {
            return false;
        }
        if (isApproval() || MEMBER_DELETED.equals(type) || MEMBER_UPDATED.equals(type)) {
            return true;
        }
        if (MEMBER_CREATED.equals(type)) {
            return data != null && data.status() != null;
        }
        if (MEMBER_STATUS_CHANGED.equals(type)) {
            return data != null && data.newStatus() != null && data.statusChangeId() != null;
        }
        return false;
    }

    public UUID memberId() {
        return subject.memberId();
    }

    /**
     * Whether the event carries names: member.created and member.updated do since members-service
     * writes them for billing (a first name is always stored). One written before that has none and
     * must not blank what the ledger knows; the rebuild fills those members in.
     */
    public boolean carriesNames() {
        return (MEMBER_CREATED.equals(type) || MEMBER_UPDATED.equals(type)) && data != null && data.firstName() != null;
    }
}
