package com.telemed.common.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.opentelemetry.api.trace.Tracer;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Formatter;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.StreamHandler;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.jboss.logging.MDC;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The one way a service consumes a topic of envelopes, on an instance of its own: a failing handler is run again
 * every second until it succeeds, a record that is no envelope or no usable event is skipped with one line naming
 * the exception's class, and the record's traceparent is the trace the handler runs in. A Quarkus test because the
 * fault-tolerance Guard is built by the running extension.
 */
@QuarkusTest
class ConsumedEventsTest {

    record Envelope(String type) {
    }

    private static final String CATEGORY = "test.consumer";
    private static final String TRACEPARENT = "00-6e0c63257de34c92bf9efcd03927272e-7a085853722dc6d2-01";

    @Inject
    ObjectMapper json;

    @Inject
    Tracer tracer;

    /** The lines logged on {@link #CATEGORY}, one a line, as the consumer formats them (printf). */
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final StreamHandler capture = new StreamHandler(out, new Formatter() {
        @Override
        public String format(LogRecord record) {
            return String.format(record.getMessage(), record.getParameters() == null ? new Object[0] : record.getParameters()) + "\n";
        }
    });

    @BeforeEach
    void listen() {
        Logger.getLogger(CATEGORY).addHandler(capture);
    }

    @AfterEach
    void stopListening() {
        Logger.getLogger(CATEGORY).removeHandler(capture);
    }

    private List<String> logged() {
        capture.flush();
        String lines = out.toString(StandardCharsets.UTF_8);
        return lines.isEmpty() ? List.of() : List.of(lines.split("\n"));
    }

    private ConsumedEvents<Envelope> events() {
        return new ConsumedEvents<>("test.events", Envelope.class, "an event envelope", json, tracer,
                org.jboss.logging.Logger.getLogger(CATEGORY));
    }

    @Test
    void aFailingHandlerRunsAgainEverySecondUntilItSucceeds() {
        List<String> attempts = new CopyOnWriteArrayList<>();
        long started = System.nanoTime();
        events().consume("{\"type\":\"item.approved\"}", new RecordHeaders(), event -> {
            attempts.add(event.type());
            if (attempts.size() < 3) {
                throw new IllegalStateException("database gone");
            }
        });
        assertEquals(List.of("item.approved", "item.approved", "item.approved"), attempts);
        assertTrue(System.nanoTime() - started >= 1_900_000_000L, "a second between attempts");
        assertEquals(List.of(), logged());
    }

    @Test
    void aRecordThatIsNoEnvelopeOrNoUsableEventIsSkippedOnceNamingTheExceptionOnly() {
        List<String> handled = new CopyOnWriteArrayList<>();
        events().consume("not an envelope", null, event -> handled.add(event.type()));
        events().consume("{\"type\":\"item.approved\"}", new RecordHeaders(), event -> {
            handled.add(event.type());
            throw new ConsumedEvents.NotAnEvent("incomplete");
        });
        events().consume("{\"type\":\"item.approved\"}", new RecordHeaders(), event -> {
            handled.add(event.type());
            json.readTree("{");
        });
        assertEquals(List.of("item.approved", "item.approved"), handled);
        assertEquals(List.of(
                "skipped a test.events record that is not an event envelope (com.fasterxml.jackson.core.JsonParseException)",
                "skipped a test.events record that is not an event envelope (com.telemed.common.kafka.ConsumedEvents$NotAnEvent)",
                "skipped a test.events record that is not an event envelope (com.fasterxml.jackson.core.io.JsonEOFException)"),
                logged());
    }

    @Test
    void theHandlerRunsInTheTraceOfTheRecordsTraceparent() {
        List<Object> traces = new CopyOnWriteArrayList<>();
        RecordHeaders headers = new RecordHeaders();
        headers.add("traceparent", TRACEPARENT.getBytes(StandardCharsets.US_ASCII));
        events().consume("{\"type\":\"item.approved\"}", headers, event -> traces.add(MDC.get("traceId")));
        events().consume("{\"type\":\"item.approved\"}", new RecordHeaders(), event -> traces.add(MDC.get("traceId")));
        assertEquals("6e0c63257de34c92bf9efcd03927272e", traces.get(0));
        assertTrue(traces.get(1) instanceof String other && other.matches("[0-9a-f]{32}") && !other.equals(traces.get(0)),
                traces.toString());
    }
}
