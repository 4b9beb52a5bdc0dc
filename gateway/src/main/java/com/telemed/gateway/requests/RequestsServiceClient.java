package com.telemed.gateway.requests;

import com.telemed.common.error.ApiException;
import com.telemed.common.remote.Answers;
import com.telemed.common.remote.RemoteCalls;
import com.telemed.common.remote.RemoteService;
import com.telemed.common.remote.ServiceUrls;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.WebApplicationException;
import java.util.UUID;

/**
 * The one way the gateway asks requests-service something itself (everything else it only forwards):
 * whether a prescriber exists, for a new prescriber account (operations-api.md: a {@code prescriberId}
 * must name an existing prescriber). Through platform-commons' remote-call policy (service proof,
 * timeouts, one retry, circuit breaker); a 404 is the answer "no such prescriber", and requests-service
 * not answering is {@code 503 Service Unavailable}. Never called inside a transaction. The URL is
 * platform-commons' {@code platform.service-urls.requests-service} (not the edge's), so this feature depends on no other.
 */
@ApplicationScoped
public class RequestsServiceClient {

    private final RequestsApi api;
    private final RemoteService requests;

    public RequestsServiceClient(RemoteCalls calls, ServiceUrls urls) {
        this.api = calls.client(RequestsApi.class, urls.of("requests-service"));
        this.requests = calls.service("requests-service");
    }

    /** Whether requests-service knows a prescriber by this id. */
    public boolean prescriberExists(UUID prescriberId) {
        try {
            PrescriberEnvelope answer = requests.call("prescriber", Answers.of(404), () -> api.prescriber(prescriberId.toString()));
            if (answer == null || answer.prescriber() == null || !prescriberId.equals(answer.prescriber().id())) {
                throw new ApiException(503, "Service Unavailable");
            }
            return true;
        } catch (WebApplicationException notFound) {
            return false;
        }
    }
}
