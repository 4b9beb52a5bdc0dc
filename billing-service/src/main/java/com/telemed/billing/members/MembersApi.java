package com.telemed.billing.members;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * members-service's billing export (members-service README, "Internal API"), keyset by member id: the
 * partner's members with their status timelines. Used only through {@link MembersClient}.
 */
@Path("/internal/members")
@Produces(MediaType.APPLICATION_JSON)
public interface MembersApi {

    @GET
    @Path("/billing-export")
    MembersPage export(@QueryParam("partnerId") String partnerId, @QueryParam("after") String after,
                       @QueryParam("limit") int limit);

    @JsonIgnoreProperties(ignoreUnknown = true)
    record MembersPage(List<ExportedMember> members, UUID next) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    record ExportedMember(UUID memberId, String firstName, String lastName, String email, Instant createdAt,
                          Instant updatedAt, List<StatusChange> statusChanges) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    record StatusChange(UUID id, String status, Instant at) {
    }
}
