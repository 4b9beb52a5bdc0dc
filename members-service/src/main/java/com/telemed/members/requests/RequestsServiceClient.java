package com.telemed.members.requests;

import com.telemed.common.error.ApiException;
import com.telemed.common.error.Failures;
import com.telemed.common.trust.ServiceProofSigner;
import com.telemed.members.member.MemberRequests;
import com.telemed.members.member.RequestSummary;
import io.quarkus.rest.client.reactive.QuarkusRestClientBuilder;
import io.smallrye.faulttolerance.api.Guard;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.WebApplicationException;
import java.net.URI;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.eclipse.microprofile.faulttolerance.exceptions.CircuitBreakerOpenException;
import org.jboss.logging.Logger;

/**
 * The one way members-service talks to requests-service. It owns the timeouts, the retry of
 * these idempotent calls (after a connection failure, a timeout or a 502/503/504; never after
 * another status), and what a failure means:
 *
 * <ul>
 *   <li>Summaries, any failure (the endpoint never answers 404: unknown members simply have no
 *       summaries, so a 404 means a route is missing): 503 {@code Service Unavailable}. {@code requests} is a
 *       contract field of member reads; an empty list would tell the partner "this member has no
 *       requests", which they may act on (delete, resubmit). A failed read they can retry is the
 *       honest answer.</li>
 *   <li>Member deletion, any failure including 404: 503. A delete must never happen unless
 *       requests-service agreed to it, so the delete fails closed.</li>
 * </ul>
 * A circuit breaker ({@link RequestsClientConfig.CircuitBreaker}) wraps each call, retry
 * included, and counts only unavailability: while open, calls answer 503 at once.
 * Logs name the operation and the HTTP status or exception classes only: no partner, member or
 * request data.
 */
@ApplicationScoped
public class RequestsServiceClient implements MemberRequests {

    private static final Logger LOG = Logger.getLogger(RequestsServiceClient.class);

    private final RequestsApi api;
    private final RequestsClientConfig config;
    private final Guard breaker;

    public RequestsServiceClient(RequestsClientConfig config, ServiceProofSigner signer) {
        this.config = config;
        this.api = QuarkusRestClientBuilder.newBuilder()
                .baseUri(URI.create(config.url()))
                .connectTimeout(config.connectTimeout().toMillis(), TimeUnit.MILLISECONDS)
                .readTimeout(config.readTimeout().toMillis(), TimeUnit.MILLISECONDS)
                .register(signer)
                .build(RequestsApi.class);
        this.breaker = Guard.create()
                .withDescription("requests-service")
                .withCircuitBreaker()
                .requestVolumeThreshold(config.circuitBreaker().requestVolume())
                .failureRatio(config.circuitBreaker().failureRatio())
                .delay(config.circuitBreaker().delay().toMillis(), ChronoUnit.MILLIS)
                .when(failure -> failure instanceof ApiException api && api.status() == 503)
                .done()
                .build();
    }

    /** One call for all the members given (a page of a list is one call), at most {@code perMember} summaries each. */
    @Override
    public Map<UUID, List<RequestSummary>> forMembers(String partnerId, Collection<UUID> memberIds, int perMember) {
        if (memberIds.isEmpty()) {
            return Map.of();
        }
        List<String> ids = memberIds.stream().map(UUID::toString).distinct().toList();
        SummariesAnswer answer = call("summaries", () -> api.summaries(new SummariesQuery(partnerId, ids, perMember)));
        if (answer == null || answer.summaries() == null) {
            throw unavailable("summaries", "answer without summaries");
        }
        // Only the members asked about, and only as many as asked: an answer about others, or
        // longer than the ask, is never shown past the bound.
        Map<UUID, List<RequestSummary>> byMember = new HashMap<>();
        for (String id : ids) {
            List<RequestSummary> summaries = answer.summaries().get(id);
            if (summaries != null) {
                byMember.put(UUID.fromString(id), List.copyOf(new ArrayList<>(summaries.subList(0, Math.min(perMember, summaries.size())))));
            }
        }
        return byMember;
    }

    @Override
    public boolean agreeToDelete(String partnerId, UUID memberId) {
        // Any failure: not agreed (requests may exist), so the delete fails closed. Repeating the
        // call is harmless: an agreed delete is agreed again, a refused one refused again.
        HasRequestsAnswer answer = call("member-deletion",
                () -> api.memberDeletion(new MemberDeletionQuery(partnerId, memberId.toString())));
        if (answer == null || answer.hasRequests() == null) {
            throw unavailable("member-deletion", "answer without hasRequests");
        }
        return !answer.hasRequests();
    }

    @SuppressWarnings("unchecked")
    private <T> T call(String operation, Supplier<T> call) {
        try {
            return (T) breaker.get(() -> attempts(operation, call), Object.class);
        } catch (CircuitBreakerOpenException e) {
            throw unavailable(operation, "circuit breaker open");
        }
    }

    private <T> T attempts(String operation, Supplier<T> call) {
        int attempts = Math.max(1, config.attempts());
        for (int attempt = 1; ; attempt++) {
            String failure;
            try {
                return call.get();
            } catch (WebApplicationException e) {
                int status = e.getResponse().getStatus();
                failure = "HTTP " + status;
                if (status != 502 && status != 503 && status != 504) {
                    throw unavailable(operation, failure);
                }
            } catch (RuntimeException e) {
                // Connection refused or reset, timeout, unreadable answer. Messages may quote the
                // answer: class names only.
                failure = firstLine(Failures.describe(e));
            }
            if (attempt >= attempts) {
                throw unavailable(operation, failure + " after " + attempts + " attempt(s)");
            }
            pause();
        }
    }

    private void pause() {
        try {
            Thread.sleep(config.retryBackoff().toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw unavailable("retry", "interrupted");
        }
    }

    private static ApiException unavailable(String operation, String reason) {
        LOG.warnf("requests-service %s unavailable: %s", operation, reason);
        return new ApiException(503, "Service Unavailable");
    }

    private static String firstLine(String described) {
        int end = described.indexOf('\n');
        return end < 0 ? described : described.substring(0, end);
    }
}
