package com.telemed.common.audit;

import io.quarkus.arc.properties.IfBuildProperty;
import io.quarkus.arc.properties.UnlessBuildProperty;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.List;

/**
 * {@code GET /internal/audit?actor=&action=&targetId=&from=&to=&limit=&beforeAt=&beforeId=}: the
 * service's own audit entries, newest first, for the gateway's {@code GET /ops/v1/audit}, which merges
 * every auditing service's. Behind the service proof like every {@code /internal} route; served only
 * by a service that audits ({@code platform.audit.enabled=true}) and checks proofs (never by the
 * gateway, whose port is public: {@code platform.trust.verify=false}). {@code 400} with the issues for
 * bad parameters.
 */
@Path("/internal/audit")
@Produces(MediaType.APPLICATION_JSON)
@IfBuildProperty(name = "platform.audit.enabled", stringValue = "true")
@UnlessBuildProperty(name = "platform.trust.verify", stringValue = "false", enableIfMissing = true)
public class InternalAuditResource {

    /** The answer: {@code {"entries":[...]}}. */
    public record Entries(List<AuditEntry> entries) {
    }

    private final AuditEntries audit;

    public InternalAuditResource(AuditEntries audit) {
        this.audit = audit;
    }

    @GET
    public Entries read(@QueryParam("actor") String actor, @QueryParam("action") String action,
                        @QueryParam("targetId") String targetId, @QueryParam("from") String from, @QueryParam("to") String to,
                        @QueryParam("limit") String limit, @QueryParam("beforeAt") String beforeAt,
                        @QueryParam("beforeId") String beforeId) {
        return new Entries(audit.read(AuditQuery.internal(actor, action, targetId, from, to, limit, beforeAt, beforeId)));
    }
}
