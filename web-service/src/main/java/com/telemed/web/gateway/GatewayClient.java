package com.telemed.web.gateway;

import com.telemed.common.remote.Answers;
import com.telemed.common.remote.RemoteCalls;
import com.telemed.common.remote.RemoteService;
import com.telemed.web.page.ServiceUrls;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.WebApplicationException;
import java.util.List;

/**
 * The one way the pages ask the gateway something: a partner's embed origins, which decide where a
 * hosted survey may send the browser back ({@code return=}). Service proof and remote-call policy as
 * for every call between services ({@link RemoteCalls}).
 */
@ApplicationScoped
public class GatewayClient {

    /** An unknown partner has no origins. */
    private static final Answers UNKNOWN_PARTNER = Answers.of(404);

    private final GatewayApi api;
    private final RemoteService gateway;

    public GatewayClient(ServiceUrls urls, RemoteCalls calls) {
        this.api = calls.client(GatewayApi.class, urls.gatewayUrl());
        this.gateway = calls.service("gateway");
    }

    /** The partner's embed allow-list, as the gateway keeps it; empty for an unknown partner. */
    public List<String> embedOrigins(String partnerId) {
        try {
            GatewayApi.EmbedOrigins answer = gateway.call("embed-origins", UNKNOWN_PARTNER, () -> api.embedOrigins(partnerId));
            return answer == null || answer.origins() == null ? List.of() : answer.origins();
        } catch (WebApplicationException unknown) {
            return List.of();
        }
    }
}
