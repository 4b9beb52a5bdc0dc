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

    /** The partner's newest member with the email in any case; index {@code members_partner_email_idx} (V4). */
    static final String EMAIL_MATCH = "SELECT * FROM members WHERE partner_id = :partnerId"
            + " AND lower(email) = lower(:email) ORDER BY created_at DESC, id DESC LIMIT 1";

    /** The outcome of {@link #findOrCreate}: the member, and whether it was created. */
    public record FoundOrCreated(Member member, boolean created) {
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
        member.persist();
        events.created(member);
        return member;
    }

    /**
     * Applies the fields the patch carries. The row is locked, so concurrent status changes are
     * audited once each and only when the status really changes, and the member's events enter
     * the outbox in commit order.
     */
    @Transactional
    public Member update(String partnerId, Optional<UUID> id, MemberPatch patch) {
        Member member = id.flatMap(found -> Member.findOwnedForUpdate(partnerId, found))
                .orElseThrow(() -> ApiException.notFound(MemberQueries.NOT_FOUND));
        return apply(partnerId, member, patch);
    }

    /**
     * The update itself, on a member this transaction holds the row lock of: the sent fields
     * change, {@code updatedAt} moves, a real status change is audited, and the member's events
     * are written ({@code member.status_changed} carrying the audit row's id). Shared by
     * {@code PUT} and the reuse branch of {@link #findOrCreate}.
     */
    private Member apply(String partnerId, Member member, MemberPatch patch) {
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
     */
    @Transactional
    public FoundOrCreated findOrCreate(String partnerId, MemberInput input) {
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
            return new FoundOrCreated(create(partnerId, input), true);
        }
        Member existing = matches.get(0);
        if (input.gender() != null) {
            // Not a PUT field, but a sent field of the inline member (clinical sex).
            existing.gender = input.gender();
        }
        return new FoundOrCreated(apply(partnerId, existing, input.inlineUpdate()), false);
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
