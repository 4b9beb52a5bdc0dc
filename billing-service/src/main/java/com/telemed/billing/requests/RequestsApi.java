package com.telemed.billing.requests;

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
 * requests-service's first approvals (requests-service README, "Internal API"), keyset by member id: each
 * of the partner's members with an approved item, and when the first was approved. Used only through
 * {@link RequestsServiceClient}.
 */
@Path("/internal/requests")
@Produces(MediaType.APPLICATION_JSON)
public interface RequestsApi {

    @GET
    @Path("/first-approvals")
    ApprovalsPage firstApprovals(@QueryParam("partnerId") String partnerId, @QueryParam("after") String after,
                                 @QueryParam("limit") int limit);

    @JsonIgnoreProperties(ignoreUnknown = true)
    record ApprovalsPage(List<FirstApproval> members, UUID next) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    record FirstApproval(UUID memberId, Instant firstApprovedAt) {
    }
}
