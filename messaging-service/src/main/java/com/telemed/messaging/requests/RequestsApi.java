package com.telemed.messaging.requests;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/**
 * requests-service's internal endpoints that messaging calls (requests-service
 * {@code request.InternalRequestResource} and {@code prescriber.InternalPrescriberResource}).
 * Used only through {@link RequestsServiceClient}.
 */
@Path("/internal")
@Produces(MediaType.APPLICATION_JSON)
public interface RequestsApi {

    /** The member's requests, newest first, with their prescriber and stored status. */
    @GET
    @Path("/requests/by-member")
    MemberRequests byMember(@QueryParam("partnerId") String partnerId, @QueryParam("memberId") String memberId);

    /** {@code 200 {prescriber}}; {@code 404 Prescriber not found}. */
    @GET
    @Path("/prescribers/{id}")
    PrescriberEnvelope prescriber(@PathParam("id") String prescriberId);
}
