package com.telemed.requests.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.telemed.common.error.ApiException;
import com.telemed.requests.FakeNeighboursResource;
import com.telemed.testkit.quarkus.InfrastructureResource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.ServiceUnavailableException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The circuit breaker of {@link RemoteCalls}, on an instance of its own (the application's never
 * opens in tests): it counts calls that ended unavailable, never 4xx answers, and keeps one
 * service's failures from closing the way to another.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(FakeNeighboursResource.class)
class RemoteCallsBreakerTest {

    private static final Duration DELAY = Duration.ofSeconds(1);

    @Test
    void opensAfterUnavailableCallsAnswersAtOnceThenTriesAgainAfterItsDelay() throws Exception {
        RemoteCalls calls = new RemoteCalls(new Config());
        AtomicInteger reached = new AtomicInteger();
        for (int i = 0; i < 4; i++) {
            ApiException failure = assertThrows(ApiException.class, () -> calls.call("members-service", "get", () -> {
                reached.incrementAndGet();
                throw new ServiceUnavailableException();
            }));
            assertEquals(503, failure.status());
        }
        assertEquals(4, reached.get());

        // Open: answered 503 without calling.
        ApiException open = assertThrows(ApiException.class, () -> calls.call("members-service", "get", () -> {
            reached.incrementAndGet();
            return "answer";
        }));
        assertEquals(503, open.status());
        assertEquals(4, reached.get());
        // Another service has its own circuit.
        assertEquals("drug", calls.call("catalogue-service", "lookup", () -> "drug"));

        Thread.sleep(DELAY.toMillis() + 200);
        assertEquals("answer", calls.call("members-service", "get", () -> {
            reached.incrementAndGet();
            return "answer";
        }));
        assertEquals(5, reached.get());
    }

    @Test
    void answersOfTheServiceNeverOpenIt() {
        RemoteCalls calls = new RemoteCalls(new Config());
        for (int i = 0; i < 10; i++) {
            assertThrows(NotFoundException.class, () -> calls.call("members-service", "get", () -> {
                throw new NotFoundException();
            }));
        }
        assertEquals("answer", calls.call("members-service", "get", () -> "answer"));
    }

    /** One attempt per call; opens when half of the last 4 calls were unavailable, for one second. */
    private static final class Config implements RemoteConfig {
        @Override
        public String membersUrl() {
            return "http://127.0.0.1:1";
        }

        @Override
        public String catalogueUrl() {
            return "http://127.0.0.1:1";
        }

        @Override
        public Duration connectTimeout() {
            return Duration.ofSeconds(1);
        }

        @Override
        public Duration readTimeout() {
            return Duration.ofSeconds(1);
        }

        @Override
        public int attempts() {
            return 1;
        }

        @Override
        public Duration retryBackoff() {
            return Duration.ofMillis(10);
        }

        @Override
        public CircuitBreaker circuitBreaker() {
            return new CircuitBreaker() {
                @Override
                public int requestVolume() {
                    return 4;
                }

                @Override
                public double failureRatio() {
                    return 0.5;
                }

                @Override
                public Duration delay() {
                    return DELAY;
                }
            };
        }
    }
}
