package com.telemed.common.remote;

import com.telemed.common.request.RequestIds;
import jakarta.inject.Singleton;
import jakarta.ws.rs.client.ClientRequestContext;
import jakarta.ws.rs.client.ClientRequestFilter;
import org.jboss.logging.MDC;

/**
 * Sends the calling request's id ({@code X-Request-Id}, from the log context) with a
 * service-to-service call, so the called service logs the partner call under the same request id
 * (its {@link RequestIds} takes it). The trace context travels beside it as {@code traceparent}
 * (OpenTelemetry's REST client instrumentation). Nothing when the caller is not serving a request.
 */
@Singleton
public class RequestIdForwarder implements ClientRequestFilter {

    @Override
    public void filter(ClientRequestContext request) {
        Object requestId = MDC.get(RequestIds.MDC_KEY);
        if (requestId != null && request.getHeaderString(RequestIds.HEADER) == null) {
            request.getHeaders().putSingle(RequestIds.HEADER, requestId.toString());
        }
    }
}
