package com.telemed.common.error;

import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** Builds JSON error responses; every failure path of every service goes through here. */
public final class ErrorResponses {

    private ErrorResponses() {
    }

    public static Response of(int status, Object error) {
        return Response.status(status).type(MediaType.APPLICATION_JSON_TYPE).entity(new ErrorBody(error)).build();
    }

    /** The reason phrase of a status as the error text: {@code 404 -> "Not Found"}. */
    public static Response forStatus(int status) {
        Response.StatusType type = Response.Status.fromStatusCode(status);
        String reason = type != null ? type.getReasonPhrase() : "Error";
        return of(status, reason);
    }
}
