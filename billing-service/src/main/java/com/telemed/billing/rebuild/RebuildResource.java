package com.telemed.billing.rebuild;

import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code POST /ops/v1/partners/:id/billing/rebuild}: an operator rebuilds a partner's ledger from
 * the owners' data ({@link Rebuild}); {@code 200 {"members": n, "billableMembers": m}}, the
 * members read and how many of them have a first approval.
 */
@Path("/ops/v1/partners/{partnerId}/billing/rebuild")
@Produces(MediaType.APPLICATION_JSON)
public class RebuildResource {

    private final Rebuild rebuild;

    public RebuildResource(Rebuild rebuild) {
        this.rebuild = rebuild;
    }

    @POST
    public Rebuild.Outcome rebuild(@PathParam("partnerId") String partnerId) {
        return rebuild.partner(partnerId);
    }
}
