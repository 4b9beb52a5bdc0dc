package com.telemed.billing.rebuild;

import com.fasterxml.jackson.databind.node.TextNode;
import com.telemed.billing.settings.BillingSettingsSchemas;
import com.telemed.common.validation.Issues;
import jakarta.ws.rs.POST;
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
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * {@code POST /ops/v1/partners/:id/billing/rebuild}: an operator rebuilds a partner's ledger from
 * the owners' data ({@link Rebuild}); {@code 200 {"members": n, "billableMembers": m}}, the
 * members read and how many of them have a first approval. A partner id the settings would refuse
 * is refused the same way ({@code 400}, issue at {@code ["partnerId"]}), before any owner is asked.
 */
@Path("/ops/v1/partners/{partnerId}/billing/rebuild")
@Produces(MediaType.APPLICATION_JSON)
public class RebuildResource {

    private final Rebuild rebuild;

    public RebuildResource(Rebuild rebuild) {
        this.rebuild = rebuild;
    }

    @Tag(name = "Billing settings")
    @Operation(operationId = "rebuildBilling", summary = "Rebuild the partner's billing ledger from the owners' data")
    @Parameter(name = "partnerId", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @APIResponse(responseCode = "200", description = "Counts", content = @Content(mediaType = "application/json", schema = @Schema(ref = "RebuildBilling200")))
    @APIResponse(responseCode = "400", ref = "ValidationFailed")
    @APIResponse(responseCode = "409", ref = "Conflict",
            description = "A later rebuild took over this one's claim after it stood still (`Rebuild taken over by a later rebuild`)")
    @POST
    public Rebuild.Outcome rebuild(@PathParam("partnerId") String partnerId) {
        Issues issues = new Issues();
        BillingSettingsSchemas.PARTNER_ID.validate(TextNode.valueOf(partnerId), List.of("partnerId"), issues);
        issues.throwIfAny();
        return rebuild.partner(partnerId);
    }
}
