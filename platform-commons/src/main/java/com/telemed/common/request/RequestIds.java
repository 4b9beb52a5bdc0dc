package com.telemed.common.request;

import com.telemed.common.partner.PartnerContext;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import java.util.UUID;
import java.util.regex.Pattern;
import org.jboss.logging.MDC;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;

/**
 * Carries {@code X-Request-Id} (the gateway's, or a new one) into the log context of the call
 * and back on the response, and the partner the call acts for ({@code X-Partner-Id}, set by the
 * gateway once it has authenticated the key, and covered by the service proof) into the log
 * context beside it.
 *
 * <p>Both entries are written for every call: a call without a (plain) partner id removes the
 * entry, so what a thread logs never names a partner of an earlier call. Nothing else of the
 * request (no other header, no body) reaches the log context.
 */
public final class RequestIds {

    public static final String HEADER = "X-Request-Id";
    public static final String MDC_KEY = "requestId";
    /** The log context's key of the partner id ({@code X-Partner-Id}). */
    public static final String PARTNER_MDC_KEY = "partnerId";
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
        String partnerId = request.getHeaderString(PartnerContext.HEADER);
        if (partnerId == null || !ACCEPTED.matcher(partnerId).matches()) {
            MDC.remove(PARTNER_MDC_KEY);
        } else {
            MDC.put(PARTNER_MDC_KEY, partnerId);
        }
    }

    @ServerResponseFilter
    public void echo(ContainerRequestContext request, ContainerResponseContext response) {
        Object id = request.getProperty(MDC_KEY);
        if (id != null) {
            response.getHeaders().putSingle(HEADER, id);
        }
    }
}
