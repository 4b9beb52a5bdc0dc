package com.telemed.requests.review;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** The console's read of one request (people-and-pages.md, "The console": the request page). */
@Path("/ops/v1/requests/{id}")
@Produces(MediaType.APPLICATION_JSON)
public class RequestReadResource {

    private final RequestReads reads;

    public RequestReadResource(RequestReads reads) {
        this.reads = reads;
    }

    @Tag(name = "Review")
    @Operation(operationId = "readRequest", summary = "One request with its member and history, any partner's", description = """
        The request as the queue gives it, its member as members-service has it now (null when
        members-service no longer has it) and its history as the partner's single read gives it.
        A person's read writes one `request.read` audit entry; the operator key's none.
        """)
    @Parameter(name = "id", in = ParameterIn.PATH, required = true, description = "Request UUID", schema = @Schema(type = SchemaType.STRING))
    @APIResponse(responseCode = "200", description = "The request", content = @Content(mediaType = "application/json", schema = @Schema(ref = "RequestRead200")))
    @APIResponse(responseCode = "401", ref = "OpsUnauthorized")
    @APIResponse(responseCode = "403", ref = "OpsForbidden")
    @APIResponse(responseCode = "404", ref = "RequestNotFound")
    @APIResponse(responseCode = "503", ref = "ServiceUnavailable")
    @GET
    public ReviewViews.Read read(@PathParam("id") String id) {
        return reads.read(id);
    }
}
