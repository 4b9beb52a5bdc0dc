package com.telemed.requests.remote;

import com.telemed.common.error.ApiException;
import com.telemed.common.error.Failures;
import jakarta.enterprise.context.ApplicationScoped;
import io.smallrye.faulttolerance.api.Guard;
import jakarta.ws.rs.WebApplicationException;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.eclipse.microprofile.faulttolerance.exceptions.CircuitBreakerOpenException;
import org.jboss.logging.Logger;

/**
 * The retry and failure policy of every call to another service. A call is repeated after a
 * connection failure, a timeout or a 502/503/504, never after another status (a 4xx is an answer
 * for the caller to read). When the attempts run out the partner gets
 * {@code 503 Service Unavailable}: honest and retryable, where a guess would not be. Logs name
 * the service, the operation and the HTTP status or exception classes only, never patient data.
 *
 * <p>Each called service has a circuit breaker ({@link RemoteConfig.CircuitBreaker}) around the
 * whole call, retries included: only "unavailable" outcomes count as failures, never a 4xx answer.
 */
@ApplicationScoped
public class RemoteCalls {

    private static final Logger LOG = Logger.getLogger(RemoteCalls.class);

    private final RemoteConfig config;
    private final Map<String, Guard> breakers = new ConcurrentHashMap<>();

    public RemoteCalls(RemoteConfig config) {
        this.config = config;
    }

    /**
     * Runs {@code call}; an answer with a status other than 502/503/504 comes back as the
     * {@link WebApplicationException} the caller maps (404, 400 ...).
     */
    @SuppressWarnings("unchecked")
    public <T> T call(String service, String operation, Supplier<T> call) {
        try {
            return (T) breaker(service).get(() -> attempts(service, operation, call), Object.class);
        } catch (CircuitBreakerOpenException e) {
            throw unavailable(service, operation, "circuit breaker open");
        }
    }

    private Guard breaker(String service) {
        return breakers.computeIfAbsent(service, name -> Guard.create()
                .withDescription(name)
                .withCircuitBreaker()
                .requestVolumeThreshold(config.circuitBreaker().requestVolume())
                .failureRatio(config.circuitBreaker().failureRatio())
                .delay(config.circuitBreaker().delay().toMillis(), ChronoUnit.MILLIS)
                .when(failure -> failure instanceof ApiException api && api.status() == 503)
                .done()
                .build());
    }

    private <T> T attempts(String service, String operation, Supplier<T> call) {
        int attempts = Math.max(1, config.attempts());
        for (int attempt = 1; ; attempt++) {
            String failure;
            try {
                return call.get();
            } catch (WebApplicationException e) {
                int status = e.getResponse().getStatus();
                if (status != 502 && status != 503 && status != 504) {
                    if (status >= 500) {
                        throw unavailable(service, operation, "HTTP " + status);
                    }
                    throw e;
                }
                failure = "HTTP " + status;
            } catch (RuntimeException e) {
                // Refused, reset, timed out or unreadable. Messages may quote the answer: class names only.
                failure = firstLine(Failures.describe(e));
            }
            if (attempt >= attempts) {
                throw unavailable(service, operation, failure + " after " + attempts + " attempt(s)");
            }
            pause(service, operation);
        }
    }

    private void pause(String service, String operation) {
        try {
            Thread.sleep(config.retryBackoff().toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw unavailable(service, operation, "interrupted");
        }
    }

    private static ApiException unavailable(String service, String operation, String reason) {
        LOG.warnf("%s %s unavailable: %s", service, operation, reason);
        return new ApiException(503, "Service Unavailable");
    }

    private static String firstLine(String described) {
        int end = described.indexOf('\n');
        return end < 0 ? described : described.substring(0, end);
    }
}
