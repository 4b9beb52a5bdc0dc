package com.telemed.gateway.audit;

import com.telemed.common.audit.AuditQuery;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * {@code GET /ops/v1/audit} (people-and-pages.md, "Audit"; an administrator's): the platform's audit
 * entries, newest first, a page at a time ({@link AuditReads}). Parameters are validated as every query
 * is ({@code 400} with the issues).
 */
@Path("/ops/v1/audit")
@Produces(MediaType.APPLICATION_JSON)
public class AuditResource {

    private final AuditReads reads;

    public AuditResource(AuditReads reads) {
        this.reads = reads;
    }

    @Tag(name = "Audit")
    @Operation(operationId = "listAuditEntries", summary = "Audit entries of every service, newest first (ids only)")
    @Parameter(name = "actor", in = ParameterIn.QUERY, description = "actor.id exactly: an account id, `service` (the operator key), a pharmacy id", schema = @Schema(type = SchemaType.STRING))
    @Parameter(name = "action", in = ParameterIn.QUERY, description = "Exactly, e.g. `request.approve`", schema = @Schema(type = SchemaType.STRING))
    @Parameter(name = "targetId", in = ParameterIn.QUERY, schema = @Schema(type = SchemaType.STRING))
    @Parameter(name = "from", in = ParameterIn.QUERY, description = "Inclusive, ISO-8601 with an offset", schema = @Schema(type = SchemaType.STRING, format = "date-time"))
    @Parameter(name = "to", in = ParameterIn.QUERY, description = "Exclusive, ISO-8601 with an offset", schema = @Schema(type = SchemaType.STRING, format = "date-time"))
    @Parameter(name = "limit", in = ParameterIn.QUERY, schema = @Schema(type = SchemaType.INTEGER, minimum = "1", maximum = "200", defaultValue = "50"))
    @Parameter(name = "after", in = ParameterIn.QUERY, description = "The previous page's nextCursor", schema = @Schema(type = SchemaType.STRING))
    @APIResponse(responseCode = "200", description = "One page", content = @Content(mediaType = "application/json", schema = @Schema(ref = "AuditPage")))
    @APIResponse(responseCode = "400", ref = "ValidationFailed")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    @APIResponse(responseCode = "503", description = "A service did not answer: no partial page", content = @Content(mediaType = "application/json", schema = @Schema(ref = "Error")))
    @GET
    public AuditViews.Page list(@QueryParam("actor") String actor, @QueryParam("action") String action,
                                @QueryParam("targetId") String targetId, @QueryParam("from") String from,
                                @QueryParam("to") String to, @QueryParam("limit") String limit, @QueryParam("after") String after) {
        return reads.page(AuditQuery.cursor(actor, action, targetId, from, to, limit, after));
    }
}
