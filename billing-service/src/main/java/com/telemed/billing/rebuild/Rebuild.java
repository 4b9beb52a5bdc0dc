package com.telemed.billing.rebuild;

import com.telemed.billing.ledger.LedgerWrites;
import io.quarkus.hibernate.orm.panache.Panache;
import io.quarkus.narayana.jta.runtime.TransactionConfiguration;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Rebuilds one partner's ledger from scratch out of the owners' data, not by replaying topics:
 * members-service's members with their status timelines (the audit of every change, whose ids are
 * the {@code statusChangeId}s of {@code member.status_changed}) and requests-service's first
 * approval per member. Replaying would need {@code care.events} and {@code member.events} kept
 * forever, with patients' names and emails in them long after a member is gone; the owners'
 * tables are the records of truth and are kept anyway.
 *
 * <p>One transaction: the partner's rows are deleted, then everything the owners hold is merged
 * back with the consumers' own merges ({@link LedgerWrites}). Summaries read the old ledger until
 * it commits. Events consumed meanwhile merge with it in either order (the merges do not depend on
 * order), so nothing they bring is lost; consumer batches touching the partner's members wait for
 * the commit. Two rebuilds of one partner run one after the other (an advisory lock).
 */
@ApplicationScoped
public class Rebuild {

    public record Outcome(int members, int billableMembers) {
    }

    private final Owners owners;
    private final LedgerWrites writes;

    public Rebuild(Owners owners, LedgerWrites writes) {
        this.owners = owners;
        this.writes = writes;
    }

    @Transactional
    @TransactionConfiguration(timeout = 3600)
    public Outcome partner(String partnerId) {
        Panache.getEntityManager().createNativeQuery("SELECT pg_advisory_xact_lock(hashtext('billing.rebuild'), hashtext(:partner))")
                .setParameter("partner", partnerId).getSingleResult();
        writes.forgetPartner(partnerId);
        int members = 0;
        UUID after = null;
        do {
            OwnersApi.MembersPage page = owners.members(partnerId, after);
            List<LedgerWrites.Names> names = new ArrayList<>();
            List<LedgerWrites.Status> statuses = new ArrayList<>();
            for (OwnersApi.ExportedMember member : page.members()) {
                names.add(new LedgerWrites.Names(partnerId, member.memberId(), member.firstName(), member.lastName(),
                        member.email(), member.updatedAt()));
                for (OwnersApi.StatusChange change : member.statusChanges()) {
                    statuses.add(new LedgerWrites.Status(change.id(), partnerId, member.memberId(), change.status(), change.at()));
                }
            }
            writes.names(names);
            writes.statuses(statuses);
            members += page.members().size();
            after = page.next();
        } while (after != null);
        int billable = 0;
        after = null;
        do {
            OwnersApi.ApprovalsPage page = owners.firstApprovals(partnerId, after);
            writes.approvals(page.members().stream()
                    .map(first -> new LedgerWrites.Approval(partnerId, first.memberId(), first.firstApprovedAt()))
                    .toList());
            billable += page.members().size();
            after = page.next();
        } while (after != null);
        return new Outcome(members, billable);
    }
}
