package com.telemed.catalogue.drug;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.telemed.common.validation.Binding;
import com.telemed.common.validation.Issues;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
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

/** Catalogue management for operators (operations-api.md, Catalogue). The edge has checked the operator key. */
@Path("/ops/v1/drugs")
@Produces(MediaType.APPLICATION_JSON)
public class DrugOpsResource {

    public record DrugEnvelope(OpsDrugView drug) {
    }

    public record DrugsEnvelope(List<OpsDrugView> drugs) {
    }

    private final DrugService drugs;

    public DrugOpsResource(DrugService drugs) {
        this.drugs = drugs;
    }

    @Tag(name = "Catalogue")
    @Operation(operationId = "putDrug", summary = "Create or replace a drug (a SKU without id gets a new sku_ id)")
    @Parameter(name = "drugId", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING, maxLength = 128))
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(ref = "DrugInput")))
    @APIResponse(responseCode = "200", description = "The drug", content = @Content(mediaType = "application/json", schema = @Schema(ref = "PutDrug200")))
    @APIResponse(responseCode = "400", ref = "ValidationFailed")
    @PUT
    @Path("/{drugId}")
    @Consumes(MediaType.APPLICATION_JSON)
    public DrugEnvelope put(@PathParam("drugId") String drugId, JsonNode body) {
        Issues issues = new Issues();
        DrugSchemas.DRUG_ID.validate(TextNode.valueOf(drugId), List.of("drugId"), issues);
        DrugSchemas.BODY.validate(body, List.of(), issues);
        issues.throwIfAny();
        DrugInput input = Binding.bindValidated(body, DrugInput.class);
        return new DrugEnvelope(OpsDrugView.of(drugs.replace(drugId, input)));
    }

    @Tag(name = "Catalogue")
    @Operation(operationId = "listOpsDrugs", summary = "Every drug, with its pharmacy")
    @APIResponse(responseCode = "200", description = "The catalogue", content = @Content(mediaType = "application/json", schema = @Schema(ref = "ListOpsDrugs200")))
    @GET
    public DrugsEnvelope list() {
        return new DrugsEnvelope(drugs.all().stream().map(OpsDrugView::of).toList());
    }
}
