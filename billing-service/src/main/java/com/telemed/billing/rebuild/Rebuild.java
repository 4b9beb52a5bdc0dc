package com.telemed.billing.rebuild;

import com.telemed.billing.ledger.LedgerRebuilds;
import com.telemed.billing.ledger.LedgerWrites;
import com.telemed.billing.members.MembersApi;
import com.telemed.billing.members.MembersClient;
import com.telemed.billing.requests.RequestsApi;
import com.telemed.billing.requests.RequestsServiceClient;
import com.telemed.common.error.ApiException;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Rebuilds one partner's ledger from scratch out of the owners' data, not by replaying topics:
 * members-service's members with their status timelines (the audit of every change, whose ids are
 * the {@code statusChangeId}s of {@code member.status_changed}) and requests-service's first
 * approval per member. Replaying would need {@code care.events} and {@code member.events} kept
 * forever, with patients' names and emails in them long after a member is gone; the owners'
 * tables are the records of truth and are kept anyway.
 *
 * <p>No call to an owner is made inside a transaction or under a lock (issue 38). The rebuild
 * claims the partner, then reads the owners page by page with no transaction open and stages each
 * page in a short transaction of its own (so it holds one page in memory at a time), then replaces
 * the partner's live rows with what it staged in one last short transaction ({@link LedgerRebuilds}).
 * Summaries read the old ledger until that swap commits. Events consumed meanwhile are merged into
 * the live rows and the staged ones, so nothing they bring is lost. Two rebuilds of one partner run
 * one after the other: the second waits for the first's claim to end (or to go stale).
 */
@ApplicationScoped
public class Rebuild {

    public record Outcome(int members, int billableMembers) {
    }

    /** How often a rebuild waiting for another looks at its claim. */
    private static final Duration WAIT = Duration.ofMillis(200);

    private final MembersClient members;
    private final RequestsServiceClient requests;
    private final LedgerRebuilds rebuilds;
    private final RebuildConfig config;

    public Rebuild(MembersClient members, RequestsServiceClient requests, LedgerRebuilds rebuilds, RebuildConfig config) {
        this.members = members;
        this.requests = requests;
        this.rebuilds = rebuilds;
        this.config = config;
    }

    public Outcome partner(String partnerId) {
        UUID rebuildId = claim(partnerId);
        try {
            Outcome outcome = readAndStage(partnerId, rebuildId);
            rebuilds.swap(partnerId, rebuildId);
            return outcome;
        } catch (LedgerRebuilds.ClaimLost lost) {
            throw new ApiException(409, "Rebuild taken over by a later rebuild");
        } catch (RuntimeException failed) {
            try {
                rebuilds.release(partnerId, rebuildId);
            } catch (RuntimeException notReleased) {
                // The claim goes stale and the next rebuild takes it over.
                failed.addSuppressed(notReleased);
            }
            throw failed;
        }
    }

    private Outcome readAndStage(String partnerId, UUID rebuildId) {
        int read = 0;
        UUID after = null;
        do {
            MembersApi.MembersPage page = members.page(partnerId, after);
            List<LedgerWrites.Names> names = new ArrayList<>();
            List<LedgerWrites.Status> statuses = new ArrayList<>();
            for (MembersApi.ExportedMember member : page.members()) {
                names.add(new LedgerWrites.Names(partnerId, member.memberId(), member.firstName(), member.lastName(),
                        member.email(), member.updatedAt()));
                for (MembersApi.StatusChange change : member.statusChanges()) {
                    statuses.add(new LedgerWrites.Status(change.id(), partnerId, member.memberId(), change.status(), change.at()));
                }
            }
            rebuilds.stage(partnerId, rebuildId, names, statuses, List.of());
            read += page.members().size();
            after = page.next();
        } while (after != null);
        int billable = 0;
        after = null;
        do {
            RequestsApi.ApprovalsPage page = requests.firstApprovals(partnerId, after);
            rebuilds.stage(partnerId, rebuildId, List.of(), List.of(), page.members().stream()
                    .map(first -> new LedgerWrites.Approval(partnerId, first.memberId(), first.firstApprovedAt()))
                    .toList());
            billable += page.members().size();
            after = page.next();
        } while (after != null);
        return new Outcome(read, billable);
    }

    /** Waits, holding nothing, while another rebuild of the partner holds a fresh claim; then claims it. */
    private UUID claim(String partnerId) {
        Duration stale = config.claimTimeout();
        while (true) {
            if (!rebuilds.claimedByAnother(partnerId, stale)) {
                Optional<UUID> claimed = rebuilds.claim(partnerId, stale);
                if (claimed.isPresent()) {
                    return claimed.get();
                }
            }
            try {
                Thread.sleep(WAIT.toMillis());
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for another rebuild of the partner");
            }
        }
    }
}
