package com.telemed.common.request;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import java.util.UUID;
import java.util.regex.Pattern;
import org.jboss.logging.MDC;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;

/**
 * Carries {@code X-Request-Id} (the gateway's, or a new one) into the log context of the call
 * and back on the response.
 */
public final class RequestIds {

    public static final String HEADER = "X-Request-Id";
    public static final String MDC_KEY = "requestId";
    // A client's id is echoed into logs and headers, so only a plain token is accepted.
    private static final Pattern ACCEPTED = Pattern.compile("[A-Za-z0-9._:-]{1,128}");

    @ServerRequestFilter(preMatching = true)
    public void assign(ContainerRequestContext request) {
        String id = request.getHeaderString(HEADER);
        if (id == null || !ACCEPTED.matcher(id).matches()) {
            id = UUID.randomUUID().toString();
        }
        request.setProperty(MDC_KEY, id);
        MDC.put(MDC_KEY, id);
    }

    @ServerResponseFilter
    public void echo(ContainerRequestContext request, ContainerResponseContext response) {
        Object id = request.getProperty(MDC_KEY);
        if (id != null) {
            response.getHeaders().putSingle(HEADER, id);
        }
    }
}
