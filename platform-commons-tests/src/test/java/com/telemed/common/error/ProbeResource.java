package com.telemed.common.error;

import static com.telemed.common.validation.Schemas.enumOf;
import static com.telemed.common.validation.Schemas.object;
import static com.telemed.common.validation.Schemas.string;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.common.partner.PartnerContext;
import com.telemed.common.validation.ObjectSchema;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.time.Instant;
import java.util.Map;

/** Test-only endpoints that raise each failure the conventions map. */
@Path("/probe")
@Produces(MediaType.APPLICATION_JSON)
public class ProbeResource {

    private static final ObjectSchema BODY = object()
            .field("email", string().email())
            .field("status", enumOf("active", "paused", "cancelled"));

    private final PartnerContext partner;

    public ProbeResource(PartnerContext partner) {
        this.partner = partner;
    }

    @POST
    @Path("/json")
    @Consumes(MediaType.APPLICATION_JSON)
    public Map<String, Object> json(JsonNode body) {
        BODY.validate(body);
        return Map.of("ok", true);
    }

    @GET
    @Path("/boom")
    public String boom() {
        throw new IllegalStateException("secret detail jane@example.com");
    }

    @GET
    @Path("/not-found")
    public String notFound() {
        throw ApiException.notFound("Member not found");
    }

    @GET
    @Path("/time")
    public Map<String, Instant> time() {
        return Map.of("at", Instant.parse("2026-11-21T09:30:00.123456Z"), "whole", Instant.parse("2026-11-21T09:30:00Z"));
    }

    /** A body bound to a record, not a tree: the character check must reach it too. */
    public record ProbeBody(String email, java.util.List<String> tags) {
    }

    @POST
    @Path("/record")
    @Consumes(MediaType.APPLICATION_JSON)
    public Map<String, Object> record(ProbeBody body) {
        return Map.of("email", body.email());
    }

    @GET
    @Path("/query")
    public Map<String, Object> query(@jakarta.ws.rs.QueryParam("search") String search) {
        return Map.of("search", search == null ? "" : search);
    }

    @GET
    @Path("/things/{thingId}")
    public Map<String, Object> thing(@jakarta.ws.rs.PathParam("thingId") String thingId) {
        return Map.of("thingId", thingId);
    }

    @GET
    @Path("/things/{thingId}/parts/{partId}")
    public Map<String, Object> part(@jakarta.ws.rs.PathParam("partId") String partId,
                                    @jakarta.ws.rs.PathParam("thingId") String thingId) {
        return Map.of("thingId", thingId, "partId", partId);
    }

    @GET
    @Path("/partner")
    public Map<String, String> partner() {
        return Map.of("partnerId", partner.partnerId());
    }
}
