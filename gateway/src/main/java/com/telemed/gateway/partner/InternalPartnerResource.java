package com.telemed.gateway.partner;

import com.telemed.common.error.ApiException;
import com.telemed.common.id.Ids;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code GET /internal/partners/:partnerId/embed-origins}: a partner's embed allow-list, for
 * web-service's hosted survey page, which sends the browser back to {@code return=} only on one of
 * these origins. Like every internal call it needs the service proof, which the edge checks for this
 * route alone ({@code edge.Edge}, surface {@code INTERNAL}); it is in no API document.
 */
@Path("/internal/partners")
@Produces(MediaType.APPLICATION_JSON)
public class InternalPartnerResource {

    private final PartnerService partners;

    public InternalPartnerResource(PartnerService partners) {
        this.partners = partners;
    }

    /** {@code 200 {"origins":[...]}} in the order the operator set them; unknown partner {@code 404 {"error":"Partner not found"}}. */
    @GET
    @Path("/{partnerId}/embed-origins")
    public PartnerResource.OriginsView embedOrigins(@PathParam("partnerId") String partnerId) {
        return new PartnerResource.OriginsView(partners.embedOrigins(
                Ids.uuid(partnerId).orElseThrow(() -> ApiException.notFound("Partner not found"))));
    }
}
