package com.telemed.gateway.audit;

import com.telemed.common.audit.AuditEntry;
import com.telemed.common.audit.AuditQuery;
import com.telemed.common.remote.RemoteCalls;
import com.telemed.gateway.edge.Upstream;
import com.telemed.gateway.edge.UpstreamUrls;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The auditing services' own entries ({@code GET /internal/audit}), each through platform-commons'
 * remote-call policy (timeouts, one retry, circuit breaker; a service that does not answer is
 * {@code 503 Service Unavailable}). Where each service listens is the gateway's {@link UpstreamUrls}
 * ({@code SERVICE_URLS_<NAME>}). members-service and web-service change nothing on {@code /ops}: no audit.
 */
@ApplicationScoped
public class AuditSources {

    /** The services that keep audit entries (interfaces41.md). */
    static final Set<Upstream> AUDITED = EnumSet.of(Upstream.REQUESTS, Upstream.CATALOGUE, Upstream.MESSAGING,
            Upstream.BILLING, Upstream.WEBHOOK);

    private final RemoteCalls calls;
    private final Map<Upstream, AuditApi> clients = new EnumMap<>(Upstream.class);

    public AuditSources(RemoteCalls calls, UpstreamUrls urls) {
        this.calls = calls;
        AUDITED.forEach(upstream -> clients.put(upstream, calls.client(AuditApi.class, urls.of(upstream).toString())));
    }

    public Set<Upstream> services() {
        return clients.keySet();
    }

    /** What {@code query} selects of {@code upstream}'s entries, newest first. Never inside a transaction. */
    public List<AuditEntry> read(Upstream upstream, AuditQuery query) {
        AuditApi api = clients.get(upstream);
        return calls.service(upstream.service()).call("audit", () -> api.read(query.actor().orElse(null),
                query.action().orElse(null), query.targetId().orElse(null), text(query.from().orElse(null)),
                text(query.to().orElse(null)), query.limit(), query.before().map(cursor -> text(cursor.at())).orElse(null),
                query.before().map(cursor -> cursor.id().toString()).orElse(null))).entries();
    }

    private static String text(Instant instant) {
        return instant == null ? null : instant.toString();
    }
}
