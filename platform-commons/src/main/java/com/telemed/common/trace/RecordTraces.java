package com.telemed.common.trace;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.TextMapGetter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jboss.logging.MDC;

/**
 * Handles one consumed event inside the trace of the call that recorded it: the record's W3C
 * {@code traceparent} header (outbox.Outbox stores it, the relay publishes it) becomes the parent of
 * a consumer span, current while the event is handled, and its trace and span ids are in the log
 * context, so the consumer's lines for the event carry the caller's trace id. A record without the
 * header (an event recorded outside a trace) is handled in a trace of its own.
 *
 * <p>Takes the header's value, not a Kafka type: platform-commons' Kafka client is optional.
 */
public final class RecordTraces {

    /** The log context's keys, as Quarkus's OpenTelemetry extension names them. */
    static final List<String> MDC_KEYS = List.of("traceId", "spanId", "parentId", "sampled");

    private static final TextMapGetter<Map<String, String>> GETTER = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Map<String, String> carrier) {
            return carrier.keySet();
        }

        @Override
        public String get(Map<String, String> carrier, String key) {
            return carrier == null ? null : carrier.get(key);
        }
    };

    private RecordTraces() {
    }

    /** Runs {@code handling} in a consumer span named {@code name}, child of {@code traceparent} (may be null). */
    public static void continued(Tracer tracer, String name, String traceparent, Runnable handling) {
        Context parent = traceparent == null
                ? Context.root()
                : W3CTraceContextPropagator.getInstance().extract(Context.root(), Map.of("traceparent", traceparent), GETTER);
        Span span = tracer.spanBuilder(name).setSpanKind(SpanKind.CONSUMER).setParent(parent).startSpan();
        Map<String, Object> previous = new HashMap<>();
        MDC_KEYS.forEach(key -> previous.put(key, MDC.get(key)));
        try (Scope ignored = span.makeCurrent()) {
            SpanContext context = span.getSpanContext();
            MDC.put("traceId", context.getTraceId());
            MDC.put("spanId", context.getSpanId());
            MDC.put("sampled", String.valueOf(context.isSampled()));
            SpanContext caller = Span.fromContext(parent).getSpanContext();
            if (caller.isValid()) {
                MDC.put("parentId", caller.getSpanId());
            } else {
                MDC.remove("parentId");
            }
            handling.run();
        } catch (RuntimeException | Error e) {
            span.setStatus(StatusCode.ERROR, e.getClass().getName());
            throw e;
        } finally {
            span.end();
            previous.forEach((key, value) -> {
                if (value == null) {
                    MDC.remove(key);
                } else {
                    MDC.put(key, value);
                }
            });
        }
    }
}
