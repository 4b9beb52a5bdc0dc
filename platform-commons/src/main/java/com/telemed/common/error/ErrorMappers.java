package com.telemed.common.error;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.telemed.common.validation.ValidationException;
import jakarta.ws.rs.NotSupportedException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * Maps every exception a resource can raise to the contract's JSON error body. Nothing internal
 * (class names, messages of unexpected failures) ever reaches the client.
 */
public final class ErrorMappers {

    private static final Logger LOG = Logger.getLogger(ErrorMappers.class);

    @ServerExceptionMapper
    public Response apiException(ApiException e) {
        return ErrorResponses.of(e.status(), e.getMessage());
    }

    @ServerExceptionMapper
    public Response validation(ValidationException e) {
        return ErrorResponses.of(400, e.issues());
    }

    @ServerExceptionMapper
    public Response unreadableJson(JsonProcessingException e) {
        return ErrorResponses.of(400, "Invalid JSON");
    }

    /**
     * Jackson's "not the shape asked for" (a body that does not bind, or content after the value):
     * named here because quarkus-rest-jackson's own mapper for it, more specific than the one above,
     * answers an empty 400.
     */
    @ServerExceptionMapper
    public Response mismatchedJson(MismatchedInputException e) {
        return ErrorResponses.of(400, "Invalid JSON");
    }

    @ServerExceptionMapper
    public Response unsupportedMediaType(NotSupportedException e) {
        return ErrorResponses.of(415, "Unsupported Media Type");
    }

    @ServerExceptionMapper
    public Response webApplication(WebApplicationException e) {
        // Quarkus REST wraps an unparseable body in a 400 whose cause is Jackson's exception.
        if (e.getCause() instanceof JsonProcessingException) {
            return ErrorResponses.of(400, "Invalid JSON");
        }
        int status = e.getResponse().getStatus();
        if (status >= 500) {
            LOG.errorf("request failed with status %d: %s", status, Failures.describe(e));
        }
        return ErrorResponses.forStatus(status);
    }

    @ServerExceptionMapper
    public Response unexpected(Throwable e) {
        LOG.errorf("unexpected failure: %s", Failures.describe(e));
        return ErrorResponses.of(500, "Internal Server Error");
    }
}
