package com.telemed.common.access;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.Map;

/**
 * Test-only /ops operations: one the table lists ({@code GET /ops/v1/drugs}: admin, prescriber), one
 * with a placeholder ({@code GET /ops/v1/conversations/{id}/messages}) and one it does not list.
 * Each answers the principal it was called as.
 */
@Path("/ops/v1")
@Produces(MediaType.APPLICATION_JSON)
public class ProbeOpsResource {

    private final Caller caller;

    public ProbeOpsResource(Caller caller) {
        this.caller = caller;
    }

    @GET
    @Path("drugs")
    public Map<String, String> drugs() {
        return Map.of("principal", caller.principal().map(Principal::header).orElse("none"));
    }

    @GET
    @Path("/conversations/{id: [a-z0-9-]+}/messages/")
    public Seen messages(@PathParam("id") String id) {
        return new Seen(caller.principal().map(Principal::header).orElse("none"), id);
    }

    public record Seen(String principal, String id) {
    }

    @GET
    @Path("/probe-unlisted")
    public Map<String, String> unlisted() {
        return Map.of("principal", caller.principal().map(Principal::header).orElse("none"));
    }
}
