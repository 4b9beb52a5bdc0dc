package com.telemed.billing.summary;

import com.telemed.common.partner.PartnerContext;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

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

    @GET
    public SummaryView summary(@QueryParam("period") String period) {
        return summaries.summary(partner.partnerId(), period);
    }
}
