package com.telemed.members.member;

import com.telemed.common.error.ApiException;
import com.telemed.common.json.Timestamps;
import com.telemed.members.audit.StatusAudit;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * Changes to one partner's members: create, update (status audit included), find-or-create and
 * delete, each writing its {@code member.events} to the outbox in the same transaction. Every
 * method takes the partner and never touches another's rows. Takes bodies already validated and
 * bound by the resources ({@link MemberInput}, {@link MemberPatch}); reads are {@link MemberQueries}.
 */
@ApplicationScoped
public class MemberService {

    public static final String HAS_REQUESTS =
            "Cannot delete member with existing requests. Consider updating the member instead.";

    static final String UNAVAILABLE = "Service Unavailable";

    /**
     * How many times {@link #update} reads, fences and tries to commit before it answers 503. Each
     * retry follows a change that committed meanwhile, so N concurrent updates of one member need
     * at most N attempts each; ten is past any real contention on one member.
     */
    static final int UPDATE_ATTEMPTS = 10;

    private static final Logger LOG = Logger.getLogger(MemberService.class);

    /** The partner's newest member with the email in any case; index {@code members_partner_email_idx} (V4). */
    static final String EMAIL_MATCH = "SELECT * FROM members WHERE partner_id = :partnerId"
            + " AND lower(email) = lower(:email) ORDER BY created_at DESC, id DESC LIMIT 1";

    /**
     * The outcome of {@link #findOrCreate}: the member, and whether it was created; or, with {@code fence}
     * set, the existing member unchanged and the fence its change needs first.
     */
    public record FoundOrCreated(Member member, boolean created, Fence fence) {
    }

    /** Change {@code version} of member {@code memberId}. */
    public record Fence(UUID memberId, long version) {
    }

    private final EntityManager entityManager;
    private final StatusAudit statusAudit;
    private final MemberEvents events;
    private final MemberRequests requests;
    private final MemberQueries queries;

    public MemberService(EntityManager entityManager, StatusAudit statusAudit, MemberEvents events,
                         MemberRequests requests, MemberQueries queries) {
        this.entityManager = entityManager;
        this.statusAudit = statusAudit;
        this.events = events;
        this.requests = requests;
        this.queries = queries;
    }

    /** Creates an active member; {@code phone}, {@code shippingAddress} and {@code gender} stay null unless sent. */
    @Transactional
    public Member create(String partnerId, MemberInput input) {
        Instant now = Timestamps.now();
        Member member = new Member();
        member.id = UUID.randomUUID();
        member.partnerId = partnerId;
        member.firstName = input.firstName();
        member.lastName = input.lastName();
        member.email = input.email();
        member.phone = input.phone().value();
        member.dateOfBirth = input.dateOfBirth();
        member.state = input.state();
        member.status = "active";
        member.gender = input.gender();
        member.address(input.address());
        member.shippingAddress(input.shippingAddress().value());
        member.createdAt = now;
        member.updatedAt = now;
        member.version = 1;
        member.persist();
        events.created(member);
        return member;
    }

    /**
     * Applies the fields the patch carries and moves the member to the next version, which
     * requests-service is told first (README, "Version and fence"). requests-service keeps a copy
     * of the member for its creates and uses it only at or above the highest version it was fenced
     * at; the fence goes out before the commit, so once this update is answered (indeed once it is
     * visible at all) requests-service no longer trusts a copy older than it, and a request the
     * partner creates next carries the new names, email, date of birth and state. A fence after the
     * commit would leave a window in which a create used the old copy; a fence that cannot be had
     * fails the update closed (503, nothing changed), as a delete without requests-service's
     * agreement does.
     *
     * <p>In order, with no connection or lock held across the call (issue 13): the member is read
     * (404 for an unknown, another partner's or malformed id, before requests-service is asked, so
     * a foreign member never looks "unavailable"); the fence for its version + 1 is sent; then, in
     * a transaction of its own, the row is locked and, if its version is still the one read, the
     * patch is applied at the fenced version. If a concurrent change committed in between (another
     * {@code PUT}, or find-or-create's reuse), that fence was not for this commit: it starts over
     * from the read, at most {@value #UPDATE_ATTEMPTS} times, then answers 503. The row lock
     * audits concurrent status changes once each, and only real ones, and puts the member's events
     * in the outbox in commit order. A fence whose update then fails costs requests-service only
     * reads of the member until the next update commits that version.
     */
    public Member update(String partnerId, Optional<UUID> id, MemberPatch patch) {
        for (int attempt = 1; attempt <= UPDATE_ATTEMPTS; attempt++) {
            Member seen = queries.read(partnerId, id);
            long next = seen.version + 1;
            requests.fence(partnerId, seen.id, next);
            Member updated = QuarkusTransaction.requiringNew().call(() -> {
                Member locked = Member.findOwnedForUpdate(partnerId, seen.id)
                        .orElseThrow(() -> ApiException.notFound(MemberQueries.NOT_FOUND));
                if (locked.version != seen.version) {
                    // A change committed since the read: the fence was for its version, not this
                    // one's. Nothing written; the lock goes with this transaction.
                    return null;
                }
                return apply(partnerId, locked, patch, next);
            });
            if (updated != null) {
                return updated;
            }
        }
        LOG.warnf("member update gave up after %d attempts, each overtaken by a concurrent change", UPDATE_ATTEMPTS);
        throw new ApiException(503, UNAVAILABLE);
    }

    /**
     * The update itself, on a member this transaction holds the row lock of: the sent fields
     * change, {@code updatedAt} moves, the member takes {@code version} (its version + 1, given by
     * the caller, which has it fenced), a real status change is audited, and the
     * member's events are written ({@code member.status_changed} carrying the audit row's id).
     * Shared by {@code PUT} and the reuse branch of {@link #findOrCreate}.
     */
    private Member apply(String partnerId, Member member, MemberPatch patch, long version) {
        MemberViews.Stored before = MemberViews.Stored.of(member);
        Instant now = Timestamps.now();
        if (patch.firstName() != null) {
            member.firstName = patch.firstName();
        }
        if (patch.lastName() != null) {
            member.lastName = patch.lastName();
        }
        if (patch.email() != null) {
            member.email = patch.email();
        }
        if (patch.phone().sent()) {
            member.phone = patch.phone().value();
        }
        if (patch.dateOfBirth() != null) {
            member.dateOfBirth = patch.dateOfBirth();
        }
        if (patch.state() != null) {
            member.state = patch.state();
        }
        if (patch.address() != null) {
            member.address(patch.address());
        }
        if (patch.shippingAddress().sent()) {
            member.shippingAddress(patch.shippingAddress().value());
        }
        UUID statusChangeId = null;
        if (patch.status() != null && !patch.status().equals(member.status)) {
            statusChangeId = statusAudit.record(member.id, partnerId, member.status, patch.status(), now).id;
            member.status = patch.status();
        }
        member.updatedAt = now;
        member.version = version;
        events.updated(before, member, statusChangeId);
        return member;
    }

    /**
     * Inline member of {@code POST /v1/requests} (partner-api.md; decisions.md, "Inline member"):
     * the partner's newest member whose email matches case-insensitively is updated with the sent
     * fields (as {@code PUT}, plus {@code gender} when sent; {@link MemberInput#inlineUpdate()}),
     * else a new active member is created (as {@code POST /v1/members}).
     *
     * <p>Race-safe without a unique index (POST /v1/members allows duplicate emails): the
     * transaction first takes an advisory lock on (partner, lower(email)), released at commit, so
     * concurrent calls for one new email run one after the other and the later ones find the
     * member the first created (READ COMMITTED: the lookup after the lock sees that commit). The
     * two-int key space of the lock is distinct from the outbox relay's single bigint key.
     *
     * <p>A new member starts at version 1 (requests-service can hold no copy of it yet). A reused one
     * moves to its version + 1, and that change must be fenced at requests-service first, as
     * {@link #update}'s is: requests-service keeps a copy of the member for its creates (README,
     * "Version and fence"). requests-service is the only caller and records the fence itself, so no
     * call goes back to it from here: unless {@code fenced} names this member and exactly that
     * version, nothing changes and the answer is the fence ({@link FoundOrCreated#fence}), which
     * requests-service records before asking again with it.
     */
    @Transactional
    public FoundOrCreated findOrCreate(String partnerId, MemberInput input, Optional<Fence> fenced) {
        String email = input.email();
        entityManager.createNativeQuery(
                        "SELECT 1 FROM (SELECT pg_advisory_xact_lock(hashtext(:partnerKey),"
                                + " hashtext(lower(:email)))) locked")
                .setParameter("partnerKey", "members.email:" + partnerId)
                .setParameter("email", email)
                .getSingleResult();
        @SuppressWarnings("unchecked")
        List<Member> matches = entityManager.createNativeQuery(
                        EMAIL_MATCH + " FOR UPDATE", Member.class)
                .setParameter("partnerId", partnerId)
                .setParameter("email", email)
                .getResultList();
        if (matches.isEmpty()) {
            return new FoundOrCreated(create(partnerId, input), true, null);
        }
        Member existing = matches.get(0);
        Fence change = new Fence(existing.id, existing.version + 1);
        if (!fenced.equals(Optional.of(change))) {
            return new FoundOrCreated(existing, false, change);
        }
        if (input.gender() != null) {
            // Not a PUT field, but a sent field of the inline member (clinical sex).
            existing.gender = input.gender();
        }
        return new FoundOrCreated(apply(partnerId, existing, input.inlineUpdate(), change.version()), false, null);
    }

    /**
     * Hard-deletes a member that has no requests. The order matters: 404 before asking
     * requests-service (another partner's member must look unknown, not "unavailable"), then
     * requests-service's agreement, which fails closed (503) when it cannot be had, then the delete
     * under the row lock. Once requests-service agreed it creates no request for the member (it
     * decides that and its inserts under one lock of its own), so no request can appear between
     * the answer and the delete; nothing is held across the call (see README, "Delete").
     */
    public void delete(String partnerId, Optional<UUID> id) {
        Member member = queries.get(partnerId, id);
        if (!requests.agreeToDelete(partnerId, member.id)) {
            throw ApiException.badRequest(HAS_REQUESTS);
        }
        QuarkusTransaction.requiringNew().run(() -> {
            // Locked: a concurrent update either commits first (and its events go out first) or
            // finds the member gone (404).
            Member locked = Member.findOwnedForUpdate(partnerId, member.id)
                    .orElseThrow(() -> ApiException.notFound(MemberQueries.NOT_FOUND));
            locked.delete();
            events.deleted(locked, Timestamps.now());
        });
    }
}
