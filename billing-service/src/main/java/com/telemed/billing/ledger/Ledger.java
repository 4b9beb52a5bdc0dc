package com.telemed.billing.ledger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * Applies a batch of consumed events to the ledger in one transaction, with their envelope ids
 * (deduplication and change commit together): a member event's names, the status it was created
 * with or changed to, its deletion; an approval's time as a candidate first approval. Events the
 * ledger has no use for (other care events, a malformed envelope) are not recorded at all. The
 * events of a partner whose ledger is being rebuilt are merged into what the rebuild staged too
 * ({@link LedgerRebuilds}), so the rebuild's swap keeps them.
 */
@ApplicationScoped
public class Ledger {

    private final LedgerWrites writes;
    private final LedgerRebuilds rebuilds;

    public Ledger(LedgerWrites writes, LedgerRebuilds rebuilds) {
        this.writes = writes;
        this.rebuilds = rebuilds;
    }

    /** Returns how many events changed the ledger (first deliveries of events it acts on). */
    @Transactional
    public int apply(List<LedgerEvent> batch) {
        List<LedgerEvent> relevant = batch.stream().filter(LedgerEvent::concernsLedger).toList();
        // First, before any row is written: the ledger's lock (shared) and the partners being rebuilt.
        Set<String> rebuilding = rebuilds.rebuilding(relevant.stream().map(LedgerEvent::partnerId).distinct().toList());
        Set<UUID> fresh = writes.firstDeliveries(relevant.stream().map(LedgerEvent::id).toList());
        List<LedgerWrites.Names> names = new ArrayList<>();
        List<LedgerWrites.Approval> approvals = new ArrayList<>();
        List<LedgerWrites.Status> statuses = new ArrayList<>();
        List<LedgerWrites.Deletion> deletions = new ArrayList<>();
        Set<UUID> applied = new HashSet<>();
        for (LedgerEvent event : relevant) {
            if (!fresh.contains(event.id()) || !applied.add(event.id())) {
                continue;
            }
            if (event.isApproval()) {
                approvals.add(new LedgerWrites.Approval(event.partnerId(), event.memberId(), event.occurredAt()));
                continue;
            }
            if (event.carriesNames()) {
                LedgerEvent.Data data = event.data();
                names.add(new LedgerWrites.Names(event.partnerId(), event.memberId(), data.firstName(), data.lastName(),
                        data.email(), event.occurredAt()));
            }
            switch (event.type()) {
                case LedgerEvent.MEMBER_CREATED -> statuses.add(new LedgerWrites.Status(event.memberId(), event.partnerId(),
                        event.memberId(), event.data().status(), event.occurredAt()));
                case LedgerEvent.MEMBER_STATUS_CHANGED -> statuses.add(new LedgerWrites.Status(event.data().statusChangeId(),
                        event.partnerId(), event.memberId(), event.data().newStatus(), event.occurredAt()));
                case LedgerEvent.MEMBER_DELETED -> deletions.add(new LedgerWrites.Deletion(event.partnerId(), event.memberId()));
                default -> {
                }
            }
        }
        merge(LedgerWrites.Tables.LIVE, names, approvals, statuses, deletions);
        if (!rebuilding.isEmpty()) {
            merge(LedgerWrites.Tables.STAGED, names.stream().filter(row -> rebuilding.contains(row.partnerId())).toList(),
                    approvals.stream().filter(row -> rebuilding.contains(row.partnerId())).toList(),
                    statuses.stream().filter(row -> rebuilding.contains(row.partnerId())).toList(),
                    deletions.stream().filter(row -> rebuilding.contains(row.partnerId())).toList());
        }
        return applied.size();
    }

    private void merge(LedgerWrites.Tables tables, List<LedgerWrites.Names> names, List<LedgerWrites.Approval> approvals,
                       List<LedgerWrites.Status> statuses, List<LedgerWrites.Deletion> deletions) {
        writes.names(tables, names);
        writes.approvals(tables, approvals);
        writes.statuses(tables, statuses);
        // Last: a member created and deleted within one batch ends deleted.
        writes.deletions(tables, deletions);
    }
}
