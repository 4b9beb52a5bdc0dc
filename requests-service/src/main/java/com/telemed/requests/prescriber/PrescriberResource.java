package com.telemed.requests.prescriber;

import static com.telemed.common.validation.Schemas.object;
import static com.telemed.common.validation.Schemas.string;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.telemed.common.validation.Binding;
import com.telemed.common.validation.ObjectSchema;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Prescribers for the back office (operations-api.md, "Prescribers"). */
@Path("/ops/v1/prescribers")
@Produces(MediaType.APPLICATION_JSON)
public class PrescriberResource {

    /** The email meets the unique index on lower(email): 254 characters (RFC 5321) fit any index entry. */
    static final ObjectSchema CREATE = object()
            .field("name", string().min(1).max(200).singleLine())
            .field("email", string().email().max(254));

    private final PrescriberService prescribers;

    public PrescriberResource(PrescriberService prescribers) {
        this.prescribers = prescribers;
    }

    @Tag(name = "Prescribers")
    @Operation(operationId = "createPrescriber")
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(ref = "CreatePrescriberBody")))
    @APIResponse(responseCode = "201", description = "Created", content = @Content(mediaType = "application/json", schema = @Schema(ref = "PrescriberEnvelope")))
    @APIResponse(responseCode = "400", ref = "ValidationFailed")
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response create(JsonNode body) {
        // An empty body reads as {} (as Express's JSON parser gives it): every field is Required.
        JsonNode input = body != null ? body : JsonNodeFactory.instance.objectNode();
        CREATE.validate(input);
        Prescriber created = prescribers.create(Binding.bindValidated(input, NewPrescriber.class));
        return Response.status(Response.Status.CREATED).entity(PrescriberEnvelope.of(created)).build();
    }

    @Tag(name = "Prescribers")
    @Operation(operationId = "getPrescriber")
    @Parameter(name = "id", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @APIResponse(responseCode = "200", description = "The prescriber", content = @Content(mediaType = "application/json", schema = @Schema(ref = "PrescriberEnvelope")))
    @APIResponse(responseCode = "404", ref = "NotFound")
    @GET
    @Path("/{id}")
    public PrescriberEnvelope get(@PathParam("id") String id) {
        return PrescriberEnvelope.of(prescribers.get(id));
    }
}
