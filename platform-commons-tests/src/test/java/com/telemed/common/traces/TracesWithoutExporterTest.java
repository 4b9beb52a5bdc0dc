package com.telemed.common.traces;

import static org.junit.jupiter.api.Assertions.assertSame;

import io.quarkus.arc.Arc;
import io.quarkus.opentelemetry.runtime.exporter.otlp.tracing.LateBoundSpanProcessor;
import io.quarkus.opentelemetry.runtime.exporter.otlp.tracing.RemoveableLateBoundSpanProcessor;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

/**
 * Without an OTLP endpoint (the shared configuration's default) Quarkus sets up no exporter at all:
 * its span processor is the placeholder it removes, so nothing ever tries localhost:4317. Trace
 * context is still created and logged (request.RequestLogContextTest, request.JsonLogLinesTest).
 */
@QuarkusTest
class TracesWithoutExporterTest {

    @Test
    void noSpanExporterIsConfigured() {
        assertSame(RemoveableLateBoundSpanProcessor.INSTANCE, Arc.container().select(LateBoundSpanProcessor.class).get());
    }
}
