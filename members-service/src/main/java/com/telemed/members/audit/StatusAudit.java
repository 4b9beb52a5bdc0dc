package com.telemed.members.audit;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.time.Instant;
import java.util.UUID;

/** Records status changes in the caller's transaction. */
@ApplicationScoped
public class StatusAudit {

    /** Records a change from {@code previous} to {@code next}; callers record real changes only. */
    @Transactional(Transactional.TxType.MANDATORY)
    public void record(UUID memberId, String partnerId, String previous, String next, Instant at) {
        MemberStatusAudit row = new MemberStatusAudit();
        row.id = UUID.randomUUID();
        row.memberId = memberId;
        row.partnerId = partnerId;
        row.previousStatus = previous;
        row.newStatus = next;
        row.changedAt = at;
        row.persist();
    }
}
