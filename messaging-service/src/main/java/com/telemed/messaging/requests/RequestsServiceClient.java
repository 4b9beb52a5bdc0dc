package com.telemed.messaging.requests;

import com.telemed.common.error.ApiException;
import com.telemed.common.remote.Answers;
import com.telemed.common.remote.RemoteCalls;
import com.telemed.common.remote.RemoteService;
import com.telemed.common.remote.ServiceUrls;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.WebApplicationException;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The one way messaging-service asks requests-service: a member's requests (prescriber
 * resolution) and a prescriber's name and email. A prescriber's 404 is an answer (no such
 * prescriber); the by-member read never answers 404, so a failure there is the platform's 503.
 */
@ApplicationScoped
public class RequestsServiceClient {

    private final RequestsApi api;
    private final RemoteService requests;

    public RequestsServiceClient(ServiceUrls urls, RemoteCalls calls) {
        this.api = calls.client(RequestsApi.class, urls.of("requests-service"));
        this.requests = calls.service("requests-service");
    }

    /** The member's requests with their prescriber and stored status, newest first. */
    public List<MemberRequests.Assignment> requestsOf(String partnerId, UUID memberId) {
        MemberRequests answer = requests.call("requests-by-member", () -> api.byMember(partnerId, memberId.toString()));
        if (answer == null || answer.requests() == null) {
            throw new ApiException(503, "Service Unavailable");
        }
        return answer.requests();
    }

    /** The prescriber, or empty when requests-service knows none by that id. */
    public Optional<PrescriberCard> prescriber(UUID prescriberId) {
        try {
            PrescriberEnvelope answer = requests.call("prescriber", Answers.of(404), () -> api.prescriber(prescriberId.toString()));
            if (answer == null || answer.prescriber() == null) {
                throw new ApiException(503, "Service Unavailable");
            }
            PrescriberEnvelope.Prescriber prescriber = answer.prescriber();
            return Optional.of(new PrescriberCard(prescriberId, prescriber.name(), prescriber.email()));
        } catch (WebApplicationException notFound) {
            return Optional.empty();
        }
    }
}
