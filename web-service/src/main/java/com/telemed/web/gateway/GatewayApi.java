package com.telemed.web.gateway;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;

/** The gateway's internal endpoint the pages use (interfaces39.md B). Used only through {@link GatewayClient}. */
@Path("/internal/partners")
@Produces(MediaType.APPLICATION_JSON)
public interface GatewayApi {

    @GET
    @Path("/{partnerId}/embed-origins")
    EmbedOrigins embedOrigins(@PathParam("partnerId") String partnerId);

    /** {@code {"origins":["https://partner.example", ...]}}: the partner's embed allow-list. */
    record EmbedOrigins(List<String> origins) {
    }
}
