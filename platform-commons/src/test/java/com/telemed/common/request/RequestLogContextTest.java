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
 * under the test profile (as under dev and local) the console line is plain text that shows both.
 */
@QuarkusTest
class RequestLogContextTest {

    @Test
    void aPartnerCallLogsWithItsRequestIdAndPartnerId() {
        try (CapturedLines captured = new CapturedLines()) {
            given().header("X-Request-Id", "req-logs-1").header("X-Partner-Id", "partner-logs-1")
                    .get("/probe/log").then().statusCode(200).header("X-Request-Id", "req-logs-1");

            List<CapturedLines.Line> lines = captured.lines();
            assertEquals(1, lines.size(), lines.toString());
            assertEquals("req-logs-1", lines.get(0).requestId());
            assertEquals("partner-logs-1", lines.get(0).partnerId());
            String console = lines.get(0).console();
            assertTrue(console.endsWith(" [req:req-logs-1] [partner:partner-logs-1] probe line" + System.lineSeparator()), console);
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
            assertTrue(captured.lines().get(1).console().endsWith(" [req:req-logs-3] [partner:] probe line" + System.lineSeparator()),
                    captured.lines().get(1).console());
        }
    }

    @Test
    void theTestProfileLogsPlainText() {
        assertEquals(PatternFormatter.class, CapturedLines.consoleFormatter().getClass());
    }
}
