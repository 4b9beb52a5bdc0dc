package com.telemed.catalogue.access;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.telemed.common.validation.Binding;
import com.telemed.common.validation.Issues;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * {@code PUT /ops/v1/partners/:id/drug-access} (operations-api.md, Partner settings). The gateway
 * owns partners; this service does not know them and stores the setting under whatever id it is given.
 */
@Path("/ops/v1/partners/{partnerId}/drug-access")
@Produces(MediaType.APPLICATION_JSON)
public class DrugAccessResource {

    /** The body, bound after {@link AccessSchemas#PUT}: {@code null} drugIds is the full catalogue. */
    public record DrugAccessInput(List<String> drugIds) {
    }

    /** {@code drugIds} is serialised as {@code null} for the full catalogue. */
    public record DrugAccessView(List<String> drugIds) {
    }

    private final DrugAccessService access;

    public DrugAccessResource(DrugAccessService access) {
        this.access = access;
    }

    @Tag(name = "Drug access")
    @Operation(operationId = "putDrugAccess", summary = "Restrict the partner's catalogue (null - the full catalogue)")
    @Parameter(name = "partnerId", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(ref = "DrugAccess")))
    @APIResponse(responseCode = "200", description = "The access", content = @Content(mediaType = "application/json", schema = @Schema(ref = "DrugAccess")))
    @APIResponse(responseCode = "400", ref = "ValidationFailed")
    @PUT
    @Consumes(MediaType.APPLICATION_JSON)
    public DrugAccessView put(@PathParam("partnerId") String partnerId, JsonNode body) {
        Issues issues = new Issues();
        AccessSchemas.PARTNER_ID.validate(TextNode.valueOf(partnerId), List.of("partnerId"), issues);
        AccessSchemas.PUT.validate(body, List.of(), issues);
        issues.throwIfAny();
        DrugAccessInput input = Binding.bindValidated(body, DrugAccessInput.class);
        return new DrugAccessView(access.set(partnerId, input.drugIds()).orElse(null));
    }
}
