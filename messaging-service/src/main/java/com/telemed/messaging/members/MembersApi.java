package com.telemed.messaging.members;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/**
 * members-service's internal endpoint that messaging calls (members-service README, "Internal
 * API"). Used only through {@link MembersClient}.
 */
@Path("/internal/members")
@Produces(MediaType.APPLICATION_JSON)
public interface MembersApi {

    /** {@code 200 {member}} for the partner's member, {@code 403} for another partner's, {@code 404} for none. */
    @GET
    @Path("/{id}/access")
    MemberEnvelope access(@PathParam("id") String memberId, @QueryParam("partnerId") String partnerId);
}
