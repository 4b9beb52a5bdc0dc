package com.telemed.requests.review;

import com.telemed.common.audit.AuditTrail;
import com.telemed.common.error.ApiException;
import com.telemed.common.id.Ids;
import com.telemed.requests.member.MembersClient;
import com.telemed.requests.request.HistoryEntry;
import com.telemed.requests.request.LineItem;
import com.telemed.requests.request.Request;
import com.telemed.requests.request.RequestQueries;
import com.telemed.requests.request.RequestViews;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.util.List;

/**
 * The console's read of one request, any partner's ({@code GET /ops/v1/requests/{id}}): its rows in
 * one transaction, then its member from members-service with none open (docs/architecture.md, "How a
 * service calls another"), then a person's {@code request.read} audit entry in a transaction of its
 * own, so an entry is written for a read that is answered (members-service down: 503, no entry).
 */
@ApplicationScoped
public class RequestReads {

    private final MembersClient members;
    private final AuditTrail audit;

    public RequestReads(MembersClient members, AuditTrail audit) {
        this.members = members;
        this.audit = audit;
    }

    /** The request, or {@code 404 Request not found} for an unknown or malformed id. */
    public ReviewViews.Read read(String id) {
        Loaded loaded = load(id);
        Request request = loaded.request();
        ReviewViews.Member member = request.memberId == null ? null
                : members.find(request.partnerId, request.memberId.toString()).map(ReviewViews.Member::of).orElse(null);
        audited(request);
        return new ReviewViews.Read(ReviewViews.Reviewed.of(request, loaded.items()), member,
                loaded.history().stream().map(RequestViews.History::of).toList());
    }

    private record Loaded(Request request, List<LineItem> items, List<HistoryEntry> history) {
    }

    /** One consistent snapshot of the request's rows. */
    @Transactional
    Loaded load(String id) {
        Request request = Ids.uuid(id).map(uuid -> Request.<Request>findById(uuid))
                .orElseThrow(() -> ApiException.notFound(RequestQueries.NOT_FOUND));
        return new Loaded(request, LineItem.ofRequest(request.id), HistoryEntry.ofRequest(request.id));
    }

    /** A person's read is audited (the operator key's is not: {@link AuditTrail#recordRead}). */
    @Transactional
    void audited(Request request) {
        audit.recordRead("request.read", "request", request.id.toString(), request.partnerId);
    }
}
