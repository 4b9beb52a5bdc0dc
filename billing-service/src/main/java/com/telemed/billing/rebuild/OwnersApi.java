package com.telemed.billing.rebuild;

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
 * The owners' internal endpoints the rebuild pages through (members-service and requests-service
 * READMEs, "Internal API"), keyset by member id. Used only through {@link Owners}.
 */
public final class OwnersApi {

    private OwnersApi() {
    }

    @Path("/internal/members")
    @Produces(MediaType.APPLICATION_JSON)
    public interface Members {

        @GET
        @Path("/billing-export")
        MembersPage export(@QueryParam("partnerId") String partnerId, @QueryParam("after") String after,
                           @QueryParam("limit") int limit);
    }

    @Path("/internal/requests")
    @Produces(MediaType.APPLICATION_JSON)
    public interface Requests {

        @GET
        @Path("/first-approvals")
        ApprovalsPage firstApprovals(@QueryParam("partnerId") String partnerId, @QueryParam("after") String after,
                                     @QueryParam("limit") int limit);
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record MembersPage(List<ExportedMember> members, UUID next) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record ExportedMember(UUID memberId, String firstName, String lastName, String email, Instant createdAt,
                                 Instant updatedAt, List<StatusChange> statusChanges) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record StatusChange(UUID id, String status, Instant at) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record ApprovalsPage(List<FirstApproval> members, UUID next) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record FirstApproval(UUID memberId, Instant firstApprovedAt) {
    }
}
