package com.telemed.gateway.audit;

import com.telemed.common.audit.AuditCursor;
import com.telemed.common.audit.AuditEntries;
import com.telemed.common.audit.AuditEntry;
import com.telemed.common.audit.AuditQuery;
import com.telemed.gateway.edge.Upstream;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One page of the platform's audit trail: the gateway's own entries and every auditing service's
 * ({@link AuditSources}), each asked for the entries the query selects, merged newest first by
 * {@code (at, id)} ({@link AuditEntry#NEWEST_FIRST}, PostgreSQL's order), cut at {@code limit}. The
 * cursor is the last entry's {@code (at, id)}, so the next page is exact with no state kept between
 * calls. Every source is asked for one entry more than the page, so {@code nextCursor} is null exactly
 * when nothing is left (at the largest page, 200, a source that answered a full page counts as having more).
 * A source that does not answer fails the whole page ({@code 503}): never a partial trail. No
 * transaction is open while a service is called.
 */
@ApplicationScoped
public class AuditReads {

    private final AuditEntries own;
    private final AuditSources sources;
    private final AccountNames names;

    public AuditReads(AuditEntries own, AuditSources sources, AccountNames names) {
        this.own = own;
        this.sources = sources;
        this.names = names;
    }

    public AuditViews.Page page(AuditQuery query) {
        int asked = Math.min(query.limit() + 1, AuditQuery.MAX_LIMIT);
        AuditQuery each = query.limit(asked);
        List<List<AuditEntry>> answers = new ArrayList<>();
        answers.add(own.read(each));
        for (Upstream service : sources.services()) {
            answers.add(sources.read(service, each));
        }
        List<AuditEntry> merged = new ArrayList<>();
        answers.forEach(merged::addAll);
        merged.sort(AuditEntry.NEWEST_FIRST);
        List<AuditEntry> page = merged.subList(0, Math.min(query.limit(), merged.size()));
        boolean more = merged.size() > query.limit()
                || asked == query.limit() && answers.stream().anyMatch(answer -> answer.size() == asked);
        String next = more && !page.isEmpty() ? AuditCursor.of(page.get(page.size() - 1)).encode() : null;
        Map<String, String> accountNames = names.of(page.stream()
                .filter(entry -> "person".equals(entry.actorType())).map(AuditEntry::actorId).toList());
        return new AuditViews.Page(page.stream().map(entry -> AuditViews.Entry.of(entry, accountNames)).toList(), next);
    }
}
