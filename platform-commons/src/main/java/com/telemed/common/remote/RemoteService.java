package com.telemed.common.remote;

import com.telemed.common.error.ApiException;
import com.telemed.common.error.Failures;
import io.smallrye.faulttolerance.api.Guard;
import jakarta.ws.rs.WebApplicationException;
import java.time.temporal.ChronoUnit;
import java.util.function.Supplier;
import org.eclipse.microprofile.faulttolerance.exceptions.CircuitBreakerOpenException;
import org.jboss.logging.Logger;

/**
 * The retry and failure policy of the calls to one service. A call is repeated after a
 * connection failure, a timeout or a 502/503/504 ({@link RemoteConfig#attempts()}), never after
 * another status. A 4xx the operation answers on purpose ({@link Answers}) comes back to the
 * caller as the {@link WebApplicationException} to read; any other status is logged and, as
 * running out of attempts, answered {@code 503 Service Unavailable}: honest and retryable, where
 * a guess would not be.
 *
 * <p>A circuit breaker ({@link RemoteConfig.CircuitBreaker}) wraps the whole call, retries
 * included, and counts only calls that ended unavailable: never an answer, never an unexpected
 * 4xx (the service is up; the contract between the two is broken, which no pause mends).
 *
 * <p>Logs name the service, the operation and the HTTP status or exception classes only, never
 * the answer's body or anything about the partner's data.
 */
public final class RemoteService {

    private static final Logger LOG = Logger.getLogger(RemoteService.class);

    private final String name;
    private final RemoteConfig config;
    private final Guard breaker;

    RemoteService(String name, RemoteConfig config) {
        this.name = name;
        this.config = config;
        this.breaker = Guard.create()
                .withDescription(name)
                .withCircuitBreaker()
                .requestVolumeThreshold(config.circuitBreaker().requestVolume())
                .failureRatio(config.circuitBreaker().failureRatio())
                .delay(config.circuitBreaker().delay().toMillis(), ChronoUnit.MILLIS)
                .when(failure -> failure instanceof ApiException api && api.status() == 503)
                .done()
                .build();
    }

    public String name() {
        return name;
    }

    /** Runs {@code call}, for which no 4xx is an answer. */
    public <T> T call(String operation, Supplier<T> call) {
        return call(operation, Answers.none(), call);
    }

    /**
     * Runs {@code call}; a status among {@code answers} comes back as the
     * {@link WebApplicationException} the caller maps (404, 400 ...). Everything else that is not
     * a result ends in {@code ApiException(503)}.
     */
    public <T> T call(String operation, Answers answers, Supplier<T> call) {
        return call(operation, answers, Math.max(1, config.attempts()), call);
    }

    /**
     * As {@link #call(String, Answers, Supplier)}, but never repeated: for a change the caller must not
     * make twice (a person's decision sent again after an answer that came too late would be refused as
     * already made, or made twice). A failure that would have been repeated is {@code 503} at once; the
     * person can send it again knowingly.
     */
    public <T> T callOnce(String operation, Answers answers, Supplier<T> call) {
        return call(operation, answers, 1, call);
    }

    @SuppressWarnings("unchecked")
    private <T> T call(String operation, Answers answers, int attempts, Supplier<T> call) {
        try {
            return (T) breaker.get(() -> attempts(operation, attempts, call), Object.class);
        } catch (CircuitBreakerOpenException e) {
            throw unavailable(operation, "circuit breaker open");
        } catch (WebApplicationException e) {
            int status = e.getResponse().getStatus();
            if (answers.contains(status)) {
                throw e;
            }
            LOG.warnf("%s %s answered HTTP %d, which is not one of its answers here: answered 503", name, operation, status);
            throw new ApiException(503, "Service Unavailable");
        }
    }

    private <T> T attempts(String operation, int attempts, Supplier<T> call) {
        for (int attempt = 1; ; attempt++) {
            String failure;
            try {
                return call.get();
            } catch (WebApplicationException e) {
                int status = e.getResponse().getStatus();
                if (status < 500) {
                    throw e;
                }
                if (status != 502 && status != 503 && status != 504) {
                    throw unavailable(operation, "HTTP " + status);
                }
                failure = "HTTP " + status;
            } catch (RuntimeException e) {
                // Refused, reset, timed out or unreadable. Messages may quote the answer: class names only.
                failure = firstLine(Failures.describe(e));
            }
            if (attempt >= attempts) {
                throw unavailable(operation, failure + " after " + attempts + " attempt(s)");
            }
            pause(operation);
        }
    }

    private void pause(String operation) {
        try {
            Thread.sleep(config.retryBackoff().toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw unavailable(operation, "interrupted");
        }
    }

    private ApiException unavailable(String operation, String reason) {
        LOG.warnf("%s %s unavailable: %s", name, operation, reason);
        return new ApiException(503, "Service Unavailable");
    }

    private static String firstLine(String described) {
        int end = described.indexOf('\n');
        return end < 0 ? described : described.substring(0, end);
    }
}
