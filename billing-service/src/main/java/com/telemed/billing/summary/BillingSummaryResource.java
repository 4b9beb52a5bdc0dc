package com.telemed.billing.summary;

import com.telemed.common.partner.PartnerContext;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.ExampleObject;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** {@code GET /v1/billing?period=} for the calling partner (partner-api.md, Billing). */
@Path("/v1/billing")
@Produces(MediaType.APPLICATION_JSON)
public class BillingSummaryResource {

    private final Summaries summaries;
    private final PartnerContext partner;

    public BillingSummaryResource(Summaries summaries, PartnerContext partner) {
        this.summaries = summaries;
        this.partner = partner;
    }

    @Tag(name = "Billing")
    @Operation(operationId = "getBillingSummary", summary = "Billing summary for the period containing a date")
    @Parameter(name = "period", in = ParameterIn.QUERY, description = "`YYYY-MM-DD`, `YYYY-MM` (the 15th of that month) or `YYYY-Www` (ISO week); default and any other value: today.", schema = @Schema(type = SchemaType.STRING))
    @APIResponse(responseCode = "200", description = "The summary", content = @Content(mediaType = "application/json", schema = @Schema(ref = "BillingSummary")))
    @APIResponse(responseCode = "404", description = "No active billing configuration", content = @Content(mediaType = "application/json", schema = @Schema(ref = "ErrorMessage"), examples = {
                @ExampleObject(name = "disabled", ref = "getBillingSummary.disabled")}))
    @GET
    public SummaryView summary(@QueryParam("period") String period) {
        return summaries.summary(partner.partnerId(), period);
    }
}
