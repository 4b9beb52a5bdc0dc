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

    record FindOrCreate(String partnerId, JsonNode member) {
    }

    record Batch(String partnerId, java.util.List<String> memberIds) {
    }

    record MemberAnswer(MemberRecord member) {
    }

    record MembersAnswer(java.util.List<MemberRecord> members) {
    }
}
