package com.telemed.members.member;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.telemed.common.error.ApiException;
import com.telemed.common.json.Timestamps;
import com.telemed.common.request.RequestIds;
import com.telemed.members.audit.StatusAudit;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.Query;
import jakarta.transaction.Transactional;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;
import org.eclipse.microprofile.context.ManagedExecutor;
import org.jboss.logging.MDC;

/** Members of one partner: every method takes the partner and never touches another's rows. */
@ApplicationScoped
public class MemberService {

    public static final String NOT_FOUND = "Member not found";

    /**
     * Stored generated column {@code search_text} (V6): lower(first name), lower(last name) and
     * lower(email) joined by {@link #FIELD_SEPARATOR}. Both list indexes carry it: the partner's
     * list index ({@code members_partner_list_idx}, an index-only scan for common and short terms)
     * and its trigram index (rare terms); the planner picks one by the term's estimated matches.
     */
    static final String SEARCH_CONDITION = " AND search_text LIKE lower(:pattern)";

    /** Joins the fields in {@code search_text}; no match of a term without it can span two fields. */
    static final char FIELD_SEPARATOR = '\u001f';

    /**
     * The contract's condition field by field, added only for a term containing
     * {@link #FIELD_SEPARATOR}: such a term could otherwise match across two fields of
     * {@code search_text}. Reads the table, which is acceptable for a term no one types.
     */
    static final String FIELDS_CONDITION = " AND (lower(first_name) LIKE lower(:pattern)"
            + " OR lower(last_name) LIKE lower(:pattern) OR lower(email) LIKE lower(:pattern))";

    static final String ORDER_AND_PAGE = " ORDER BY created_at DESC, id DESC LIMIT :limit OFFSET :offset";

    /** The filters of a list query, with named parameters partnerId, status and pattern. */
    static String where(boolean byStatus, String search) {
        String searchCondition = search == null || search.isEmpty() ? ""
                : search.indexOf(FIELD_SEPARATOR) < 0 ? SEARCH_CONDITION : SEARCH_CONDITION + FIELDS_CONDITION;
        return " WHERE partner_id = :partnerId" + (byStatus ? " AND status = :status" : "") + searchCondition;
    }

    /**
     * A page of the list: the ids come from an index-only scan of {@code members_partner_list_idx}
     * (or the trigram index, for a rare term), which filters on the index tuples, and only the page's
     * rows are then read by primary key. Selecting the rows directly would read every skipped
     * non-matching row from the table (a deep page of a two-letter term: 240 ms against 20 ms).
     */
    static String pageQuery(String where) {
        return "SELECT m.* FROM (SELECT id, created_at FROM members" + where + ORDER_AND_PAGE + ") page"
                + " JOIN members m ON m.id = page.id AND m.partner_id = :partnerId"
                + " ORDER BY page.created_at DESC, page.id DESC";
    }

    /**
     * A page of members, their request summaries (a member missing from the map has none) and the
     * number of members matching the filters.
     */
    public record Found(List<Member> members, Map<UUID, List<RequestSummary>> requests, long total) {
    }

    public static final String HAS_REQUESTS =
            "Cannot delete member with existing requests. Consider updating the member instead.";

    private final EntityManager entityManager;
    private final StatusAudit statusAudit;
    private final MemberEvents events;
    private final MemberRequests requests;
    private final ManagedExecutor executor;

    public MemberService(EntityManager entityManager, StatusAudit statusAudit, MemberEvents events,
                         MemberRequests requests, ManagedExecutor executor) {
        this.entityManager = entityManager;
        this.statusAudit = statusAudit;
        this.events = events;
        this.requests = requests;
        this.executor = executor;
    }

    /** Creates an active member from a body that passed {@link MemberSchemas#CREATE}. */
    @Transactional
    public Member create(String partnerId, JsonNode body) {
        Instant now = Timestamps.now();
        Member member = new Member();
        member.id = UUID.randomUUID();
        member.partnerId = partnerId;
        member.firstName = body.get("firstName").textValue();
        member.lastName = body.get("lastName").textValue();
        member.email = body.get("email").textValue();
        member.phone = MemberSchemas.textOrNull(body.get("phone"));
        member.dateOfBirth = body.get("dateOfBirth").textValue();
        member.state = body.get("state").textValue();
        member.status = "active";
        member.gender = MemberSchemas.textOrNull(body.get("gender"));
        member.address(AddressView.from(body.get("address")));
        JsonNode shipping = body.get("shippingAddress");
        member.shippingAddress(shipping == null || shipping.isNull() ? null : AddressView.from(shipping));
        member.createdAt = now;
        member.updatedAt = now;
        member.persist();
        events.created(member);
        return member;
    }

    public Member get(String partnerId, Optional<UUID> id) {
        return id.flatMap(found -> Member.findOwned(partnerId, found)).orElseThrow(() -> ApiException.notFound(NOT_FOUND));
    }

    /**
     * Applies the fields present in a body that passed {@link MemberSchemas#UPDATE}. The row is
     * locked, so concurrent status changes are audited once each and only when the status really
     * changes, and the member's events enter the outbox in commit order.
     */
    @Transactional
    public Member update(String partnerId, Optional<UUID> id, JsonNode body) {
        Member member = id.flatMap(found -> Member.findOwnedForUpdate(partnerId, found))
                .orElseThrow(() -> ApiException.notFound(NOT_FOUND));
        return apply(partnerId, member, body);
    }

    /**
     * The update itself, on a member this transaction holds the row lock of: the sent fields
     * change, {@code updatedAt} moves, a real status change is audited, and the member's events
     * are written. Shared by {@code PUT} and the reuse branch of {@link #findOrCreate}.
     */
    private Member apply(String partnerId, Member member, JsonNode body) {
        MemberViews.Stored before = MemberViews.Stored.of(member);
        Instant now = Timestamps.now();
        if (body.has("firstName")) {
            member.firstName = body.get("firstName").textValue();
        }
        if (body.has("lastName")) {
            member.lastName = body.get("lastName").textValue();
        }
        if (body.has("email")) {
            member.email = body.get("email").textValue();
        }
        if (body.has("phone")) {
            member.phone = MemberSchemas.textOrNull(body.get("phone"));
        }
        if (body.has("dateOfBirth")) {
            member.dateOfBirth = body.get("dateOfBirth").textValue();
        }
        if (body.has("state")) {
            member.state = body.get("state").textValue();
        }
        if (body.has("address")) {
            member.address(AddressView.from(body.get("address")));
        }
        if (body.has("shippingAddress")) {
            JsonNode shipping = body.get("shippingAddress");
            member.shippingAddress(shipping.isNull() ? null : AddressView.from(shipping));
        }
        if (body.has("status")) {
            String next = body.get("status").textValue();
            if (!next.equals(member.status)) {
                statusAudit.record(member.id, partnerId, member.status, next, now);
                member.status = next;
            }
        }
        member.updatedAt = now;
        events.updated(before, member);
        return member;
    }

    /** The fields of an inline member that update a reused member ({@code gender} aside). */
    static final List<String> INLINE_UPDATE_FIELDS = List.of("firstName", "lastName", "email", "phone",
            "dateOfBirth", "state", "address", "shippingAddress");

    /** The partner's newest member with the email in any case; index {@code members_partner_email_idx} (V4). */
    static final String EMAIL_MATCH = "SELECT * FROM members WHERE partner_id = :partnerId"
            + " AND lower(email) = lower(:email) ORDER BY created_at DESC, id DESC LIMIT 1";

    /** The outcome of {@link #findOrCreate}: the member, and whether it was created. */
    public record FoundOrCreated(Member member, boolean created) {
    }

    /**
     * Inline member of {@code POST /v1/requests} (partner-api.md; decisions.md, "Inline member"):
     * the partner's newest member whose email matches case-insensitively is updated with the sent
     * fields (as {@code PUT}, plus {@code gender} when sent), else a new active member is created
     * (as {@code POST /v1/members}). {@code member} passed {@link MemberSchemas#CREATE}.
     *
     * <p>Race-safe without a unique index (POST /v1/members allows duplicate emails): the
     * transaction first takes an advisory lock on (partner, lower(email)), released at commit, so
     * concurrent calls for one new email run one after the other and the later ones find the
     * member the first created (READ COMMITTED: the lookup after the lock sees that commit). The
     * two-int key space of the lock is distinct from the outbox relay's single bigint key.
     */
    @Transactional
    public FoundOrCreated findOrCreate(String partnerId, JsonNode member) {
        String email = member.get("email").textValue();
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
            return new FoundOrCreated(create(partnerId, member), true);
        }
        Member existing = matches.get(0);
        if (member.hasNonNull("gender")) {
            // Not a PUT field, but a sent field of the inline member (clinical sex).
            existing.gender = member.get("gender").textValue();
        }
        // Only the inline member's own fields: anything else the caller sent (status, ...) was
        // never validated and is not an inline field.
        ObjectNode sent = member.deepCopy();
        sent.retain(INLINE_UPDATE_FIELDS);
        return new FoundOrCreated(apply(partnerId, existing, sent), false);
    }

    /**
     * The partner's members among {@code ids}, in the order asked, each once; unknown and
     * foreign ids are left out.
     */
    public List<Member> batch(String partnerId, List<UUID> ids) {
        if (ids.isEmpty()) {
            return List.of();
        }
        Map<UUID, Member> found = new HashMap<>();
        Member.<Member>list("partnerId = ?1 and id in ?2", partnerId, new LinkedHashSet<>(ids))
                .forEach(member -> found.put(member.id, member));
        List<Member> ordered = new ArrayList<>();
        for (UUID id : new LinkedHashSet<>(ids)) {
            Member member = found.get(id);
            if (member != null) {
                ordered.add(member);
            }
        }
        return ordered;
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
        Member member = get(partnerId, id);
        if (!requests.agreeToDelete(partnerId, member.id)) {
            throw ApiException.badRequest(HAS_REQUESTS);
        }
        QuarkusTransaction.requiringNew().run(() -> {
            // Locked: a concurrent update either commits first (and its events go out first) or
            // finds the member gone (404).
            Member locked = Member.findOwnedForUpdate(partnerId, member.id)
                    .orElseThrow(() -> ApiException.notFound(NOT_FOUND));
            locked.delete();
            events.deleted(locked, Timestamps.now());
        });
    }

    /**
     * One page of the partner's members, newest first, after the filters, with their request
     * summaries. {@code search} is a case-insensitive substring of first name, last name or email;
     * {@code status} is exact.
     *
     * <p>The page is read first, so the summaries call to requests-service runs while the exact
     * count runs here (the two longest steps of a broad search, overlapped). A page with rows
     * that is not full tells the total by itself, and the count is skipped.
     */
    public Found list(String partnerId, String search, String status, long page, int limit) {
        String pattern = search == null || search.isEmpty() ? null : "%" + likeEscaped(search) + "%";
        String where = where(status != null, search);
        // A page far past any partner's size must not overflow: PostgreSQL takes any bigint offset.
        long offset = page - 1 > Long.MAX_VALUE / limit ? Long.MAX_VALUE : (page - 1) * limit;

        Query select = entityManager.createNativeQuery(pageQuery(where), Member.class);
        bind(select, partnerId, status, pattern);
        select.setParameter("limit", limit);
        select.setParameter("offset", offset);
        @SuppressWarnings("unchecked")
        List<Member> members = select.getResultList();

        CompletableFuture<Map<UUID, List<RequestSummary>>> summaries = members.isEmpty()
                ? CompletableFuture.completedFuture(Map.of())
                : inCallLogContext(() -> requests.forMembers(partnerId, members.stream().map(member -> member.id).toList(),
                        MemberRequests.LIST_PER_MEMBER));
        long total;
        if (!members.isEmpty() && members.size() < limit) {
            total = offset + members.size();
        } else {
            // Exact, as the contract asks; never reads the table for a common or short term (V6).
            Query count = entityManager.createNativeQuery("SELECT count(*) FROM members" + where);
            bind(count, partnerId, status, pattern);
            total = ((Number) count.getSingleResult()).longValue();
        }
        return new Found(members, joined(summaries), total);
    }

    /** Runs {@code call} on the executor with this call's request id in the log context. */
    private <T> CompletableFuture<T> inCallLogContext(Supplier<T> call) {
        Object requestId = MDC.get(RequestIds.MDC_KEY);
        return executor.supplyAsync(() -> {
            if (requestId != null) {
                MDC.put(RequestIds.MDC_KEY, requestId);
            }
            try {
                return call.get();
            } finally {
                MDC.remove(RequestIds.MDC_KEY);
            }
        });
    }

    /** The future's value, or the exception it failed with (a 503 {@code ApiException}), unwrapped. */
    private static <T> T joined(CompletableFuture<T> future) {
        try {
            return future.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw e;
        }
    }

    private static void bind(Query query, String partnerId, String status, String pattern) {
        query.setParameter("partnerId", partnerId);
        if (status != null) {
            query.setParameter("status", status);
        }
        if (pattern != null) {
            query.setParameter("pattern", pattern);
        }
    }

    /** The term as a literal LIKE substring: backslash (PostgreSQL's default escape), % and _ escaped. */
    static String likeEscaped(String term) {
        return term.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
    }
}
