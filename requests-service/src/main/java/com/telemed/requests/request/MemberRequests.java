package com.telemed.requests.request;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.telemed.common.id.Ids;
import io.quarkus.hibernate.orm.panache.Panache;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Collectors;
import org.hibernate.query.NativeQuery;

/** Requests seen per member, for the internal endpoints. */
@ApplicationScoped
public class MemberRequests {

    /** partner-api.md, "Request summary"; {@code drugId} null for multi-item requests. */
    @JsonPropertyOrder({"id", "drugId", "prescriptionName", "dosage", "status", "caseNotes", "createdAt", "updatedAt"})
    public record Summary(UUID id, String drugId, String prescriptionName, String dosage, String status,
                          String caseNotes, Instant createdAt, Instant updatedAt) {
    }

    /** A request as messaging needs it: who is assigned and how it stands. */
    @JsonPropertyOrder({"id", "prescriberId", "status", "createdAt"})
    public record Assignment(UUID id, UUID prescriberId, String status, Instant createdAt) {
    }

    /** A member's first approval: the earliest {@code approved} history entry of its requests. */
    @JsonPropertyOrder({"memberId", "firstApprovedAt"})
    public record FirstApproval(UUID memberId, Instant firstApprovedAt) {
    }

    /**
     * A page of first approvals, members ascending (named parameters partner, after when
     * {@code after}, limit). Every approval writes an {@code approved} history entry at the
     * approval's instant ({@code review.Acting.approve}: item approvals and request-level ones),
     * so the earliest of a member's requests' entries is its first approval. The partner's requests
     * are read in member order from {@code requests_partner_member_idx} and each one's approvals
     * from {@code history_entries_approved_idx} (V13), grouped as they come: a page reads the
     * requests of its members (and of members between them never approved), not the partner's all.
     */
    static String firstApprovals(boolean after) {
        return "SELECT r.member_id, min(h.at) AS first_approved_at FROM requests r"
                + " JOIN history_entries h ON h.request_id = r.id AND h.action = 'approved'"
                + " WHERE r.partner_id = :partner" + (after ? " AND r.member_id > :after" : "")
                + " GROUP BY r.member_id ORDER BY r.member_id LIMIT :limit";
    }

    /** The most summaries of one member any call gets (members-service asks for fewer on its list). */
    public static final int MAX_PER_MEMBER = 100;

    /**
     * Each member's newest requests, at most {@code perMember} of them (each member's own
     * {@code LIMIT}, read from {@code requests_partner_member_idx}: a member with thousands of
     * requests costs no more than one with {@code perMember}), with their line items (by the
     * {@code (request_id, position)} key): one statement, a row per item, or one for a request
     * without items. Only the columns a summary shows.
     */
    static final String NEWEST_PER_MEMBER = "SELECT r.id, r.member_id, r.status, r.consultation_open, r.drug_id, r.drug_name,"
            + " r.dosage, r.case_notes, r.created_at, r.updated_at, li.id AS item_id, li.drug_id AS item_drug_id,"
            + " li.drug_name AS item_drug_name, li.dosage AS item_dosage, li.status AS item_status"
            + " FROM unnest(cast(:members AS uuid[])) AS asked(member_id)"
            + " CROSS JOIN LATERAL (SELECT id, member_id, status, consultation_open, drug_id, drug_name, dosage, case_notes,"
            + " created_at, updated_at FROM requests WHERE partner_id = :partner AND member_id = asked.member_id"
            + " ORDER BY created_at DESC, id DESC LIMIT :perMember) r"
            + " LEFT JOIN line_items li ON li.request_id = r.id"
            + " ORDER BY r.member_id, r.created_at DESC, r.id DESC, li.position";

    /**
     * Summaries of each member's requests, newest first, at most {@code perMember} each (1 to
     * {@link #MAX_PER_MEMBER}); members without requests map to {@code []}. The rows of
     * {@link #NEWEST_PER_MEMBER} are copied into detached {@link Request}s and {@link LineItem}s that
     * no session knows (no entity loading, no dirty check at commit, as {@code RequestQueries}' list),
     * so the summaries are the entities'.
     */
    @Transactional
    @SuppressWarnings("unchecked")
    public Map<String, List<Summary>> summaries(String partnerId, List<String> memberIds, int perMember) {
        List<UUID> ids = memberIds.stream().map(Ids::uuid).flatMap(Optional::stream).distinct().toList();
        Map<String, List<Summary>> byMember = new LinkedHashMap<>();
        memberIds.forEach(id -> byMember.put(id, List.of()));
        if (ids.isEmpty()) {
            return byMember;
        }
        // UUIDs as a PostgreSQL array literal: the ids were parsed, so nothing else can be in it.
        String members = ids.stream().map(UUID::toString).collect(Collectors.joining(",", "{", "}"));
        NativeQuery<Object[]> query = Panache.getEntityManager().createNativeQuery(NEWEST_PER_MEMBER)
                .unwrap(NativeQuery.class)
                .addScalar("id", UUID.class).addScalar("member_id", UUID.class).addScalar("status", String.class)
                .addScalar("consultation_open", Boolean.class).addScalar("drug_id", String.class)
                .addScalar("drug_name", String.class).addScalar("dosage", String.class).addScalar("case_notes", String.class)
                .addScalar("created_at", Instant.class).addScalar("updated_at", Instant.class)
                .addScalar("item_id", UUID.class).addScalar("item_drug_id", String.class)
                .addScalar("item_drug_name", String.class).addScalar("item_dosage", String.class)
                .addScalar("item_status", String.class);
        query.setParameter("members", members);
        query.setParameter("partner", partnerId);
        query.setParameter("perMember", Math.max(1, Math.min(perMember, MAX_PER_MEMBER)));
        // Rows come member by member, each member's requests newest first, each request's items in order.
        Map<UUID, Request> requests = new LinkedHashMap<>();
        Map<UUID, List<LineItem>> items = new HashMap<>();
        for (Object[] row : query.getResultList()) {
            Request request = requests.computeIfAbsent((UUID) row[0], id -> listed(id, row));
            if (row[10] != null) {
                items.computeIfAbsent(request.id, id -> new ArrayList<>()).add(listedItem(request.id, row));
            }
        }
        requests.values().stream()
                .collect(Collectors.groupingBy(request -> request.memberId, LinkedHashMap::new, Collectors.toList()))
                .forEach((memberId, ofMember) -> byMember.put(memberId.toString(), ofMember.stream()
                        .map(request -> summary(request, items.getOrDefault(request.id, List.of())))
                        .toList()));
        return byMember;
    }

    /** The request of a {@link #NEWEST_PER_MEMBER} row: what a summary reads of it. */
    private static Request listed(UUID id, Object[] row) {
        Request request = new Request();
        request.id = id;
        request.memberId = (UUID) row[1];
        request.status = (String) row[2];
        request.consultationOpen = (Boolean) row[3];
        request.drugId = (String) row[4];
        request.drugName = (String) row[5];
        request.dosage = (String) row[6];
        request.caseNotes = (String) row[7];
        request.createdAt = (Instant) row[8];
        request.updatedAt = (Instant) row[9];
        return request;
    }

    /** The line item of a {@link #NEWEST_PER_MEMBER} row: what a summary reads of it. */
    private static LineItem listedItem(UUID requestId, Object[] row) {
        LineItem item = new LineItem();
        item.id = (UUID) row[10];
        item.requestId = requestId;
        item.drugId = (String) row[11];
        item.drugName = (String) row[12];
        item.dosage = (String) row[13];
        item.status = (String) row[14];
        return item;
    }

    private static Summary summary(Request request, List<LineItem> items) {
        List<String> statuses = items.stream().map(item -> item.status).toList();
        String status = RequestStatus.computed(request, statuses);
        if (items.isEmpty()) {
            return new Summary(request.id, request.drugId, request.drugName, request.dosage, status, request.caseNotes,
                    request.createdAt, request.updatedAt);
        }
        LineItem first = items.get(0);
        boolean single = items.size() == 1;
        return new Summary(request.id, single ? first.drugId : null, single ? first.drugName : null,
                single ? first.dosage : null, status, request.caseNotes, request.createdAt, request.updatedAt);
    }

    /**
     * At most {@code limit} members of the partner with at least one approval, each with its first
     * approval, member ids ascending above {@code after} (from the first when empty). Members whose
     * requests were never approved (pending, denied, cancelled only) are not among them.
     */
    @Transactional
    @SuppressWarnings("unchecked")
    public List<FirstApproval> firstApprovals(String partnerId, Optional<UUID> after, int limit) {
        NativeQuery<Object[]> query = Panache.getEntityManager().createNativeQuery(firstApprovals(after.isPresent()))
                .unwrap(NativeQuery.class)
                .addScalar("member_id", UUID.class)
                .addScalar("first_approved_at", Instant.class);
        query.setParameter("partner", partnerId);
        after.ifPresent(id -> query.setParameter("after", id));
        query.setParameter("limit", limit);
        return query.getResultList().stream()
                .map(row -> new FirstApproval((UUID) row[0], (Instant) row[1]))
                .toList();
    }

    @Transactional
    public List<Assignment> assignments(String partnerId, String memberId) {
        return Ids.uuid(memberId)
                .map(id -> Request.<Request>list("partnerId = ?1 and memberId = ?2 order by createdAt desc, id desc", partnerId, id)
                        .stream().map(request -> new Assignment(request.id, request.prescriberId, request.status, request.createdAt))
                        .toList())
                .orElse(List.of());
    }
}
