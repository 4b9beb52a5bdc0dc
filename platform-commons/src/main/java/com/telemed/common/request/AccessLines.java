package com.telemed.common.request;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;
import org.jboss.resteasy.reactive.server.SimpleResourceInfo;

/**
 * One access line per call a service's resources handle (the gateway writes its own for what it forwards):
 * the method, the resource method that answered (never the path, which carries ids; never the query,
 * a header or a body), the status and the duration. The log context makes it the call's line: its
 * request id, partner id and trace id, so one partner call can be followed through every service.
 */
public final class AccessLines {

    private static final Logger ACCESS = Logger.getLogger(AccessLines.class);
    private static final String STARTED = AccessLines.class.getName() + ".started";

    @ServerRequestFilter(preMatching = true)
    public void start(ContainerRequestContext request) {
        request.setProperty(STARTED, System.nanoTime());
    }

    @ServerResponseFilter
    public void log(ContainerRequestContext request, ContainerResponseContext response, SimpleResourceInfo resource) {
        Object started = request.getProperty(STARTED);
        long millis = started instanceof Long nanos ? (System.nanoTime() - nanos) / 1_000_000 : -1;
        String handler = resource == null || resource.getResourceClass() == null
                ? "[no resource]"
                : resource.getResourceClass().getSimpleName() + "." + resource.getMethodName();
        ACCESS.info(request.getMethod() + " " + handler + " " + response.getStatus() + " " + millis + "ms");
    }
}
