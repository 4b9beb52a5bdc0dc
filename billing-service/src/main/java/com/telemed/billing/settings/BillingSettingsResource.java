package com.telemed.billing.settings;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.telemed.common.error.ApiException;
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

/**
 * {@code PUT}/{@code GET /ops/v1/partners/:id/billing} (operations-api.md, "Partner settings"):
 * {@code {enabled, cycle: "monthly" | "weekly", weekday (1 Monday .. 7 Sunday, weekly only),
 * ratePerMember}}, answered with what is stored. A weekly cycle needs its weekday and a monthly one
 * takes none. Never set: {@code 404 Billing settings not found}.
 */
@Path("/ops/v1/partners/{partnerId}/billing")
@Produces(MediaType.APPLICATION_JSON)
public class BillingSettingsResource {

    static final String NOT_FOUND = "Billing settings not found";

    private final BillingSettingsStore settings;

    public BillingSettingsResource(BillingSettingsStore settings) {
        this.settings = settings;
    }

    @Tag(name = "Billing settings")
    @Operation(operationId = "putBillingSettings")
    @Parameter(name = "partnerId", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(ref = "BillingSettings")))
    @APIResponse(responseCode = "200", description = "The settings", content = @Content(mediaType = "application/json", schema = @Schema(ref = "BillingSettings")))
    @APIResponse(responseCode = "400", ref = "ValidationFailed")
    @PUT
    @Consumes(MediaType.APPLICATION_JSON)
    public BillingSettingsViews.Settings put(@PathParam("partnerId") String partnerId, JsonNode body) {
        Issues issues = new Issues();
        BillingSettingsSchemas.PARTNER_ID.validate(TextNode.valueOf(partnerId), List.of("partnerId"), issues);
        BillingSettingsSchemas.BODY.validate(body, List.of(), issues);
        issues.throwIfAny();
        return settings.put(partnerId, Binding.bindValidated(body, BillingSettingsInput.class));
    }

    @Tag(name = "Billing settings")
    @Operation(operationId = "getBillingSettings")
    @Parameter(name = "partnerId", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @APIResponse(responseCode = "200", description = "The settings", content = @Content(mediaType = "application/json", schema = @Schema(ref = "BillingSettings")))
    @APIResponse(responseCode = "404", ref = "NotFound")
    @GET
    public BillingSettingsViews.Settings get(@PathParam("partnerId") String partnerId) {
        return settings.find(partnerId).orElseThrow(() -> ApiException.notFound(NOT_FOUND));
    }
}
