package com.telemed.requests.member;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/** members-service's internal endpoints (members-service/README.md). Used only through {@link MembersClient}. */
@Path("/internal/members")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public interface MembersApi {

    @POST
    @Path("/find-or-create")
    MemberAnswer findOrCreate(FindOrCreate body);

    @GET
    @Path("/{id}")
    MemberAnswer get(@PathParam("id") String id, @QueryParam("partnerId") String partnerId);

    @POST
    @Path("/batch")
    MembersAnswer batch(Batch body);

    /**
     * {@code fenced}: null on the first ask; after an answer with a {@code fence}, that fence, recorded here
     * ({@link MemberCopies#fence}) before asking again.
     */
    record FindOrCreate(String partnerId, JsonNode member, Fence fenced) {
    }

    /** The change {@code version} of the member {@code memberId}. */
    record Fence(String memberId, long version) {
    }

    record Batch(String partnerId, java.util.List<String> memberIds) {
    }

    /**
     * {@code member}, or (find-or-create only, when it would change an existing member whose change was not
     * fenced as {@code fence}) no member and the fence to record before asking again.
     */
    record MemberAnswer(MemberRecord member, Fence fence) {
    }

    record MembersAnswer(java.util.List<MemberRecord> members) {
    }
}
