package com.telemed.gateway.audit;

import com.telemed.common.audit.AuditEntry;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.List;

/** {@code GET /internal/audit} of an auditing service (platform-commons' {@code audit.InternalAuditResource}). */
@Path("/internal/audit")
public interface AuditApi {

    /** The answer: {@code {"entries":[...]}}, newest first. */
    record Entries(List<AuditEntry> entries) {
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    Entries read(@QueryParam("actor") String actor, @QueryParam("action") String action, @QueryParam("targetId") String targetId,
                 @QueryParam("from") String from, @QueryParam("to") String to, @QueryParam("limit") int limit,
                 @QueryParam("beforeAt") String beforeAt, @QueryParam("beforeId") String beforeId);
}
