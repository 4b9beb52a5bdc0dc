package com.telemed.members.audit;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.time.Instant;
import java.util.UUID;

/** Records status changes in the caller's transaction. */
@ApplicationScoped
public class StatusAudit {

    /**
     * Records a change from {@code previous} to {@code next}; callers record real changes only.
     * Returns the row written: its id is the change's {@code statusChangeId} on
     * {@code member.status_changed} and in the billing export, so a consumer can match the two.
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public MemberStatusAudit record(UUID memberId, String partnerId, String previous, String next, Instant at) {
        MemberStatusAudit row = new MemberStatusAudit();
        row.id = UUID.randomUUID();
        row.memberId = memberId;
        row.partnerId = partnerId;
        row.previousStatus = previous;
        row.newStatus = next;
        row.changedAt = at;
        row.persist();
        return row;
    }
}
