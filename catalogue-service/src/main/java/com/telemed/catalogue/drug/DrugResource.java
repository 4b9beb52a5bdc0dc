package com.telemed.catalogue.drug;

import com.telemed.common.partner.PartnerContext;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** {@code GET /v1/drugs}: the calling partner's catalogue, contract fields only (partner-api.md, Drugs). */
@Path("/v1/drugs")
@Produces(MediaType.APPLICATION_JSON)
public class DrugResource {

    public record DrugsEnvelope(List<DrugView> drugs) {
    }

    private final DrugService drugs;
    private final PartnerContext partner;

    public DrugResource(DrugService drugs, PartnerContext partner) {
        this.drugs = drugs;
        this.partner = partner;
    }

    @Tag(name = "Drugs")
    @Operation(operationId = "listDrugs", summary = "The account's drug catalogue", description = "No parameters, no filters, no pagination; in no guaranteed order. Cache for hours.")
    @APIResponse(responseCode = "200", description = "The catalogue", content = @Content(mediaType = "application/json", schema = @Schema(ref = "DrugList")))
    @GET
    public DrugsEnvelope list() {
        return new DrugsEnvelope(drugs.visibleTo(partner.partnerId()).stream().map(DrugView::of).toList());
    }
}
