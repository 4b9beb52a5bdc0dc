package com.telemed.members.requests;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * The internal endpoints of requests-service that members-service calls (contract defined here,
 * see README "requests-service contract"). Used only through {@link RequestsServiceClient}, which
 * owns timeouts, retries and failure handling; never inject or call it elsewhere.
 */
@Path("/internal/requests")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public interface RequestsApi {

    /**
     * Request summaries of several members of one partner, newest first per member. A read, hence retried. The
     * answer's bytes, read by {@link SummariesReader} into a {@link SummariesAnswer} (issue 44: every list page).
     */
    @POST
    @Path("/summaries")
    byte[] summaries(SummariesQuery query);

    /**
     * Asked before a delete: {@code hasRequests: true} refuses it; {@code false} agrees, and
     * requests-service creates no request for the member from then on. Repeatable, hence retried.
     */
    @POST
    @Path("/member-deletions")
    HasRequestsAnswer memberDeletion(MemberDeletionQuery query);

    /**
     * Sent before an update of the member commits: requests-service's copy of it is not valid below
     * {@code version}; answered {@code 204 No Content}. requests-service keeps the highest fence, so
     * the call is idempotent, hence retried.
     */
    @POST
    @Path("/member-fences")
    void memberFence(MemberFence body);
}
