package com.telemed.requests.member;

import com.telemed.common.json.Timestamps;
import io.quarkus.hibernate.orm.panache.Panache;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.util.UUID;

/**
 * The rule "a member with requests cannot be deleted" across two services (members-service
 * README, "Delete"). members-service owns members, requests-service owns requests, and a
 * delete must never leave a request pointing at a member that has gone. Both decisions are
 * taken here, in requests-service's database, in short transactions that hold the member's
 * advisory lock:
 *
 * <ul>
 *   <li>{@link #agree}: members-service asks before it deletes. With requests, the delete is
 *       refused; without, the member is recorded in {@code deleted_members} (V7) and the delete
 *       may go ahead.</li>
 *   <li>every create, in the statement that inserts the request
 *       ({@link com.telemed.requests.request.NewRequestRows}, the database function
 *       {@code member_live}, V16), refuses a recorded member ({@code 400 Member not found}, as for
 *       a member that has gone).</li>
 * </ul>
 * Whichever commits first wins: a create that committed first is seen by the delete's count, a
 * delete that committed first is seen by the create's check. A create's member lookup may have
 * found the member before the delete was agreed; its insert cannot follow it.
 * Creates take the lock shared (creates for one member do not wait for each other), the delete
 * exclusive.
 */
@ApplicationScoped
public class MemberDeletions {

    /**
     * {@code true} when the member has requests (the delete must be refused; nothing recorded);
     * {@code false} when it has none: the member is recorded as deleted, and no request will be
     * created for it from now on. Repeating it is harmless.
     */
    @Transactional
    public boolean agree(String partnerId, UUID memberId) {
        Panache.getEntityManager()
                .createNativeQuery("SELECT 1 FROM (SELECT pg_advisory_xact_lock(hashtext('requests.member:' || :partner), hashtext(:member))) AS locked")
                .setParameter("partner", partnerId)
                .setParameter("member", memberId.toString())
                .getSingleResult();
        boolean hasRequests = !Panache.getEntityManager()
                .createNativeQuery("SELECT 1 FROM requests WHERE partner_id = :partner AND member_id = :member LIMIT 1")
                .setParameter("partner", partnerId)
                .setParameter("member", memberId)
                .getResultList().isEmpty();
        if (!hasRequests) {
            Panache.getEntityManager()
                    .createNativeQuery("INSERT INTO deleted_members (partner_id, member_id, deleted_at) VALUES (:partner, :member, :at)"
                            + " ON CONFLICT (partner_id, member_id) DO NOTHING")
                    .setParameter("partner", partnerId)
                    .setParameter("member", memberId)
                    .setParameter("at", Timestamps.now())
                    .executeUpdate();
            // The member's copy goes with it: no create reads it again (MemberCopies never answers a
            // recorded member), and its date of birth is not kept for a member that no longer exists.
            Panache.getEntityManager()
                    .createNativeQuery(MemberCopies.FORGET)
                    .setParameter("partner", partnerId)
                    .setParameter("member", memberId)
                    .executeUpdate();
        }
        return hasRequests;
    }
}
