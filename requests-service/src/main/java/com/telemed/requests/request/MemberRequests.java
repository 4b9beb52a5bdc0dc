package com.telemed.requests.request;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.telemed.common.id.Ids;
import io.agroal.api.AgroalDataSource;
import io.quarkus.hibernate.orm.panache.Panache;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
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

    private final AgroalDataSource dataSource;

    public MemberRequests(AgroalDataSource dataSource) {
        this.dataSource = dataSource;
    }

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
     * {@link #MAX_PER_MEMBER}); members without requests map to {@code []}. {@link #NEWEST_PER_MEMBER} on one
     * pooled connection in autocommit, as {@code RequestQueries}' list (issue 44): no transaction, no ORM session
     * for one read; its rows copied into detached {@link Request}s and {@link LineItem}s that no session knows,
     * so the summaries are the entities'. Every page of members-service's list asks this.
     */
    public Map<String, List<Summary>> summaries(String partnerId, List<String> memberIds, int perMember) {
        List<UUID> ids = memberIds.stream().map(Ids::uuid).flatMap(Optional::stream).distinct().toList();
        Map<String, List<Summary>> byMember = new LinkedHashMap<>();
        memberIds.forEach(id -> byMember.put(id, List.of()));
        if (ids.isEmpty()) {
            return byMember;
        }
        // UUIDs as a PostgreSQL array literal: the ids were parsed, so nothing else can be in it.
        String members = ids.stream().map(UUID::toString).collect(Collectors.joining(",", "{", "}"));
        Map<String, Object> values = new HashMap<>();
        values.put("members", members);
        values.put("partner", partnerId);
        values.put("perMember", Math.max(1, Math.min(perMember, MAX_PER_MEMBER)));
        // Rows come member by member, each member's requests newest first, each request's items in order.
        List<RequestRows.Listed> listed;
        try (Connection connection = dataSource.getConnection();
             PreparedStatement statement = RequestQueries.Positional.of(NEWEST_PER_MEMBER).prepare(connection, values);
             ResultSet rows = statement.executeQuery()) {
            listed = RequestRows.grouped(rows, MemberRequests::listed, 11, MemberRequests::listedItem);
        } catch (SQLException e) {
            throw new IllegalStateException("reading request summaries failed", e);
        }
        Map<UUID, List<Summary>> found = new LinkedHashMap<>();
        for (RequestRows.Listed entry : listed) {
            found.computeIfAbsent(entry.request().memberId, ignored -> new ArrayList<>())
                    .add(summary(entry.request(), entry.items()));
        }
        found.forEach((memberId, summaries) -> byMember.put(memberId.toString(), List.copyOf(summaries)));
        return byMember;
    }

    /** The request of a {@link #NEWEST_PER_MEMBER} row: what a summary reads of it. */
    private static Request listed(UUID id, ResultSet row) throws SQLException {
        Request request = new Request();
        request.id = id;
        request.memberId = row.getObject(2, UUID.class);
        request.status = row.getString(3);
        request.consultationOpen = row.getBoolean(4);
        request.drugId = row.getString(5);
        request.drugName = row.getString(6);
        request.dosage = row.getString(7);
        request.caseNotes = row.getString(8);
        request.createdAt = RequestRows.instant(row.getTimestamp(9));
        request.updatedAt = RequestRows.instant(row.getTimestamp(10));
        return request;
    }

    /** The line item of a {@link #NEWEST_PER_MEMBER} row: what a summary reads of it. */
    private static LineItem listedItem(UUID requestId, UUID itemId, ResultSet row) throws SQLException {
        LineItem item = new LineItem();
        item.id = itemId;
        item.requestId = requestId;
        item.drugId = row.getString(12);
        item.drugName = row.getString(13);
        item.dosage = row.getString(14);
        item.status = row.getString(15);
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
