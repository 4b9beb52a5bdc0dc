package com.telemed.common.traces;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.telemed.common.OtherSettings;
import io.quarkus.arc.Arc;
import io.quarkus.opentelemetry.runtime.exporter.otlp.tracing.LateBoundSpanProcessor;
import io.quarkus.opentelemetry.runtime.exporter.otlp.tracing.RemoveableLateBoundSpanProcessor;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.time.Duration;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** With an OTLP endpoint configured (and only the endpoint), a call's spans are exported there. */
@QuarkusTest
@TestProfile(OtherSettings.class)
class TracesExportTest {

    private static final String TRACE_ID = "5b8efff798038103d269b633813fc60c";

    @Test
    void aCallsSpanIsExportedToTheConfiguredEndpoint() {
        assertFalse(Arc.container().select(LateBoundSpanProcessor.class).get() instanceof RemoveableLateBoundSpanProcessor);

        given().header("traceparent", "00-" + TRACE_ID + "-eee19b7ec3c1b174-01").get("/probe/log").then().statusCode(200);

        byte[] traceId = HexFormat.of().parseHex(TRACE_ID);
        await().atMost(Duration.ofSeconds(20)).until(() -> OtlpCollector.EXPORTS.stream()
                .anyMatch(export -> export.path().equals("/v1/traces") && contains(export.body(), traceId)));
        assertEquals(0, OtlpCollector.EXPORTS.stream().filter(export -> !export.path().equals("/v1/traces")).count());
    }

    private static boolean contains(byte[] body, byte[] part) {
        outer:
        for (int i = 0; i + part.length <= body.length; i++) {
            for (int j = 0; j < part.length; j++) {
                if (body[i + j] != part[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
