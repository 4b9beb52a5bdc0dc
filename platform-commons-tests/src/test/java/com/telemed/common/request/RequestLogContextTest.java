package com.telemed.common.request;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import java.util.Arrays;
import java.util.List;
import org.jboss.logmanager.formatters.PatternFormatter;
import org.junit.jupiter.api.Test;

/**
 * A call's request id and partner id are in the log context of what it logs, and only of that call;
 * under the test profile (as under dev and local) the console line is plain text that shows both, and
 * the call's trace id: the one of the caller's {@code traceparent}, or a new one.
 */
@QuarkusTest
class RequestLogContextTest {

    private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";

    @Test
    void aPartnerCallLogsWithItsRequestIdPartnerIdAndTraceId() {
        try (CapturedLines captured = new CapturedLines()) {
            given().header("X-Request-Id", "req-logs-1").header("X-Partner-Id", "partner-logs-1")
                    .header("traceparent", "00-" + TRACE_ID + "-00f067aa0ba902b7-01")
                    .get("/probe/log").then().statusCode(200).header("X-Request-Id", "req-logs-1");

            List<CapturedLines.Line> lines = captured.lines();
            assertEquals(1, lines.size(), lines.toString());
            assertEquals("req-logs-1", lines.get(0).requestId());
            assertEquals("partner-logs-1", lines.get(0).partnerId());
            assertEquals(TRACE_ID, lines.get(0).traceId());
            String console = lines.get(0).console();
            assertTrue(console.endsWith(" [req:req-logs-1] [partner:partner-logs-1] [trace:" + TRACE_ID + "] probe line"
                    + System.lineSeparator()), console);
        }
    }

    /** The next call on the same service, without a partner, names no partner: the entry does not outlive its call. */
    @Test
    void theNextCallCarriesNothingOfTheLast() {
        try (CapturedLines captured = new CapturedLines()) {
            given().header("X-Request-Id", "req-logs-2").header("X-Partner-Id", "partner-logs-2")
                    .get("/probe/log").then().statusCode(200);
            given().header("X-Request-Id", "req-logs-3").get("/probe/log").then().statusCode(200);
            given().header("X-Request-Id", "req-logs-4").header("X-Partner-Id", "partner logs <4>")
                    .get("/probe/log").then().statusCode(200);

            assertEquals(List.of("req-logs-2", "req-logs-3", "req-logs-4"),
                    captured.lines().stream().map(CapturedLines.Line::requestId).toList());
            assertEquals(Arrays.asList("partner-logs-2", null, null),
                    captured.lines().stream().map(CapturedLines.Line::partnerId).toList());
            // No traceparent: the service starts a trace of its own, one per call.
            List<String> traceIds = captured.lines().stream().map(CapturedLines.Line::traceId).toList();
            assertTrue(traceIds.stream().allMatch(id -> id != null && id.matches("[0-9a-f]{32}")), traceIds.toString());
            assertEquals(3, traceIds.stream().distinct().count(), traceIds.toString());
            assertTrue(captured.lines().get(1).console().endsWith(" [req:req-logs-3] [partner:] [trace:" + traceIds.get(1)
                    + "] probe line" + System.lineSeparator()), captured.lines().get(1).console());
        }
    }

    @Test
    void theTestProfileLogsPlainText() {
        assertEquals(PatternFormatter.class, CapturedLines.consoleFormatter().getClass());
    }
}
