package com.telemed.requests.member;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * Another service's error answer handed to the partner as it is: the inline member's
 * validation issues come from members-service, which owns the member rules.
 */
public final class PassedThrough extends RuntimeException {

    private final int status;
    private final JsonNode body;

    public PassedThrough(int status, JsonNode body) {
        super(null, null, false, false);
        this.status = status;
        this.body = body;
    }

    public static final class Mapper {
        @ServerExceptionMapper
        public Response map(PassedThrough failure) {
            return Response.status(failure.status).type(MediaType.APPLICATION_JSON).entity(failure.body).build();
        }
    }
}
