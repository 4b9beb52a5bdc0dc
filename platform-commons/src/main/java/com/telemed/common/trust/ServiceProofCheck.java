package com.telemed.common.trust;

import com.telemed.common.error.EarlyAnswers;
import io.quarkus.arc.properties.IfBuildProperty;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;

/**
 * The one place a service decides whether a call comes from the platform: a Vert.x route ahead of
 * every other (so it holds for every resource, {@code /internal/**}, {@code /ops/**}, unknown paths
 * and Quarkus's own endpoints alike) that answers {@code 401 {"error":"Unauthorized"}}, serving
 * nothing and reading no body, unless the call carries a fresh {@link ServiceProof} for its method,
 * its request target as received, its {@code X-Partner-Id} header and its {@code X-Principal} header
 * (who an {@code /ops} call acts as: believed because the proof covers it). No path is open: the probes
 * ({@code /q/health} and below, for the orchestrator) and {@code /q/metrics} (for the scraper) are not
 * on this router but on the management interface's own port ({@code quarkus.management.enabled}),
 * which this check does not guard; neither shows partner or patient data.
 *
 * <p>Every service has it through platform-commons; the gateway, whose callers are partners and
 * operators with their own credentials, turns it off at build time ({@code platform.trust.verify=false}).
 * Refusals are logged without the path (paths can carry tokens) or the sent headers, at most one
 * line per {@value #LOG_INTERVAL_SECONDS} seconds with the count of those not logged.
 */
@Singleton
@IfBuildProperty(name = "platform.trust.verify", stringValue = "true", enableIfMissing = true)
public class ServiceProofCheck {

    private static final Logger LOG = Logger.getLogger(ServiceProofCheck.class);
    private static final String BODY = "{\"error\":\"Unauthorized\"}";
    static final long LOG_INTERVAL_SECONDS = 10;

    private final ServiceTrust trust;
    private final AtomicLong nextLogAt = new AtomicLong(System.nanoTime());
    private final AtomicLong unlogged = new AtomicLong();

    public ServiceProofCheck(ServiceTrust trust) {
        this.trust = trust;
    }

    void install(@Observes Router router) {
        router.route().order(Integer.MIN_VALUE).handler(this::check);
    }

    private void check(RoutingContext context) {
        HttpServerRequest request = context.request();
        ServiceProof.Verdict verdict = trust.verify(request);
        if (verdict == ServiceProof.Verdict.PROVEN) {
            context.next();
            return;
        }
        refused(request, verdict);
        EarlyAnswers.answerAndClose(request, 401, BODY);
    }

    private void refused(HttpServerRequest request, ServiceProof.Verdict verdict) {
        long now = System.nanoTime();
        long next = nextLogAt.get();
        if (now - next < 0 || !nextLogAt.compareAndSet(next, now + LOG_INTERVAL_SECONDS * 1_000_000_000L)) {
            unlogged.incrementAndGet();
            return;
        }
        long others = unlogged.getAndSet(0);
        String from = request.remoteAddress() == null ? "unknown" : request.remoteAddress().hostAddress();
        LOG.warnf("refused a %s call without a valid service proof (%s) from %s%s", request.method().name(),
                verdict.name().toLowerCase(java.util.Locale.ROOT), from,
                others == 0 ? "" : "; " + others + " more refused since the last report");
    }
}
