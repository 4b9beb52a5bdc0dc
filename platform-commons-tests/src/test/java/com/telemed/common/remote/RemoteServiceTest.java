package com.telemed.common.remote;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.common.error.ApiException;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.ForbiddenException;
import jakarta.ws.rs.InternalServerErrorException;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.ServiceUnavailableException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The policy of every call to another service, on instances of its own ({@link TestPolicy}: one
 * retry, a circuit of 4 calls): which failures are repeated, which statuses are answers, what is
 * logged, and the circuit breaker. A Quarkus test because the fault-tolerance Guard is built by
 * the running extension.
 */
@QuarkusTest
class RemoteServiceTest {

    private final List<String> logged = new CopyOnWriteArrayList<>();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            logged.add(String.format(record.getMessage(), record.getParameters() == null ? new Object[0] : record.getParameters()));
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    @BeforeEach
    void listen() {
        Logger.getLogger(RemoteService.class.getName()).addHandler(capture);
    }

    @AfterEach
    void stopListening() {
        Logger.getLogger(RemoteService.class.getName()).removeHandler(capture);
    }

    private static RemoteService service(String name) {
        return new RemoteService(name, new TestPolicy(2, 1_000_000));
    }

    /** Counts the attempts; fails with {@code failures} in order, then answers "answer". */
    private static Supplier<String> failing(AtomicInteger attempts, RuntimeException... failures) {
        return () -> {
            int attempt = attempts.getAndIncrement();
            if (attempt < failures.length) {
                throw failures[attempt];
            }
            return "answer";
        };
    }

    @Test
    void aResultIsReturnedAsItIs() {
        assertEquals("answer", service("members-service").call("get", () -> "answer"));
    }

    @Test
    void aTransientFailureIsRepeatedOnce() {
        for (RuntimeException transientFailure : List.of(new ServiceUnavailableException(),
                new WebApplicationException(Response.status(502).build()), new WebApplicationException(Response.status(504).build()),
                new ProcessingException("connection refused"))) {
            AtomicInteger attempts = new AtomicInteger();
            assertEquals("answer", service("members-service").call("get", failing(attempts, transientFailure)));
            assertEquals(2, attempts.get(), transientFailure.toString());
        }
    }

    @Test
    void aCallMadeOnceIsNeverRepeated() {
        for (RuntimeException transientFailure : List.of(new ServiceUnavailableException(),
                new WebApplicationException(Response.status(504).build()), new ProcessingException("read timed out"))) {
            AtomicInteger attempts = new AtomicInteger();
            ApiException failure = assertThrows(ApiException.class, () -> service("gateway").callOnce("approve", Answers.of(400),
                    failing(attempts, transientFailure)));
            assertEquals(503, failure.status());
            assertEquals(1, attempts.get(), transientFailure.toString());
        }
        AtomicInteger attempts = new AtomicInteger();
        assertEquals("answer", service("gateway").callOnce("approve", Answers.of(400), failing(attempts)));
        assertEquals(1, attempts.get());
        assertTrue(logged.contains("gateway approve unavailable: HTTP 503 after 1 attempt(s)"), logged.toString());
    }

    @Test
    void twoTransientFailuresAreServiceUnavailableAndLogNoMoreThanTheirClasses() {
        AtomicInteger attempts = new AtomicInteger();
        ApiException failure = assertThrows(ApiException.class, () -> service("members-service").call("get",
                failing(attempts, new ProcessingException("secret answer text"), new ServiceUnavailableException())));
        assertEquals(503, failure.status());
        assertEquals("Service Unavailable", failure.getMessage());
        assertEquals(2, attempts.get());
        assertEquals(List.of("members-service get unavailable: HTTP 503 after 2 attempt(s)"), logged);
    }

    @Test
    void anotherServerErrorIsServiceUnavailableAtOnce() {
        AtomicInteger attempts = new AtomicInteger();
        ApiException failure = assertThrows(ApiException.class,
                () -> service("members-service").call("get", failing(attempts, new InternalServerErrorException())));
        assertEquals(503, failure.status());
        assertEquals(1, attempts.get());
        assertEquals(List.of("members-service get unavailable: HTTP 500"), logged);
    }

    @Test
    void anAnswerComesBackToTheCallerUnrepeatedAndUnlogged() {
        AtomicInteger attempts = new AtomicInteger();
        NotFoundException notFound = new NotFoundException();
        WebApplicationException answer = assertThrows(WebApplicationException.class,
                () -> service("members-service").call("get", Answers.of(404), failing(attempts, notFound)));
        assertSame(notFound, answer);
        assertEquals(1, attempts.get());
        assertEquals(List.of(), logged);
    }

    @Test
    void aStatusThatIsNotAnAnswerOfTheOperationIsLoggedAndServiceUnavailable() {
        AtomicInteger attempts = new AtomicInteger();
        ApiException failure = assertThrows(ApiException.class,
                () -> service("requests-service").call("summaries", failing(attempts, new NotFoundException())));
        assertEquals(503, failure.status());
        assertEquals(1, attempts.get());

        ApiException forbidden = assertThrows(ApiException.class,
                () -> service("members-service").call("find-or-create", Answers.of(400), failing(new AtomicInteger(), new ForbiddenException())));
        assertEquals(503, forbidden.status());
        assertEquals(List.of(
                "requests-service summaries answered HTTP 404, which is not one of its answers here: answered 503",
                "members-service find-or-create answered HTTP 403, which is not one of its answers here: answered 503"), logged);
    }

    @Test
    void theCircuitOpensAfterUnavailableCallsAnswersAtOnceThenLetsOneTrialThroughAfterItsDelay() {
        RemoteService members = new RemoteService("members-service", new TestPolicy(1, 4));
        RemoteService catalogue = new RemoteService("catalogue-service", new TestPolicy(1, 4));
        AtomicInteger reached = new AtomicInteger();
        for (int i = 0; i < 4; i++) {
            ApiException failure = assertThrows(ApiException.class, () -> members.call("get", () -> {
                reached.incrementAndGet();
                throw new ServiceUnavailableException();
            }));
            assertEquals(503, failure.status());
        }
        assertEquals(4, reached.get());

        // Open: answered 503 without calling.
        ApiException open = assertThrows(ApiException.class, () -> members.call("get", () -> {
            reached.incrementAndGet();
            return "answer";
        }));
        assertEquals(503, open.status());
        assertEquals(4, reached.get());
        assertTrue(logged.contains("members-service get unavailable: circuit breaker open"), logged.toString());
        // Another service has its own circuit.
        assertEquals("drug", catalogue.call("lookup", () -> "drug"));

        // After the delay one trial call goes through and closes the circuit.
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(100)).until(() -> {
            try {
                return members.call("get", () -> {
                    reached.incrementAndGet();
                    return "answer";
                }).equals("answer");
            } catch (ApiException stillOpen) {
                return false;
            }
        });
        assertEquals(5, reached.get());
        assertEquals("answer", members.call("get", () -> "answer"));
    }

    @Test
    void neitherAnswersNorUnexpectedStatusesOpenTheCircuit() {
        RemoteService members = new RemoteService("members-service", new TestPolicy(1, 4));
        for (int i = 0; i < 10; i++) {
            assertThrows(NotFoundException.class, () -> members.call("get", Answers.of(404), () -> {
                throw new NotFoundException();
            }));
            assertThrows(ApiException.class, () -> members.call("get", () -> {
                throw new BadRequestException();
            }));
        }
        assertEquals("answer", members.call("get", () -> "answer"));
    }

    @Test
    void answersAreClientErrorsOnly() {
        assertThrows(IllegalArgumentException.class, () -> Answers.of(404, 503));
        assertTrue(Answers.of(400, 404).contains(400));
        assertTrue(!Answers.none().contains(404));
    }

    /** {@code attempts} per call, 10 ms apart; opens when half of the last {@code volume} calls were unavailable, for one second. */
    record TestPolicy(int attempts, int volume, Duration readTimeout) implements RemoteConfig {
        TestPolicy(int attempts, int volume) {
            this(attempts, volume, Duration.ofSeconds(1));
        }

        @Override
        public Duration connectTimeout() {
            return Duration.ofSeconds(1);
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
                    return volume;
                }

                @Override
                public double failureRatio() {
                    return 0.5;
                }

                @Override
                public Duration delay() {
                    return Duration.ofSeconds(1);
                }
            };
        }
    }
}
