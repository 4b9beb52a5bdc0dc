package com.telemed.common.partner;

import com.telemed.common.error.ApiException;
import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.core.HttpHeaders;

/**
 * The partner a call acts for, taken only from the gateway's internal header. The gateway
 * authenticates the caller and overwrites any value a client sent, so services trust it.
 */
@RequestScoped
public class PartnerContext {

    public static final String HEADER = "X-Partner-Id";

    private final HttpHeaders headers;

    public PartnerContext(HttpHeaders headers) {
        this.headers = headers;
    }

    /** The calling partner; a call that did not come through the gateway's auth has none. */
    public String partnerId() {
        String partnerId = headers.getHeaderString(HEADER);
        if (partnerId == null || partnerId.isBlank()) {
            throw new ApiException(401, "API Key missing");
        }
        return partnerId;
    }
}
