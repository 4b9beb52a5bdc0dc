package com.telemed.web.page;

import com.telemed.common.error.ApiException;
import com.telemed.common.error.Failures;
import com.telemed.common.validation.ValidationException;
import io.quarkus.qute.Location;
import io.quarkus.qute.Template;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.lang.annotation.Annotation;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;

/**
 * Every error a browser can get from this service is an HTML page of its own ({@code error.html}) with
 * the right status: never a stack trace, never JSON. Three layers, so nothing slips through:
 * <ol>
 *   <li>exception mappers, ahead of platform-commons' JSON ones (a higher priority for the same
 *   exceptions): a page's {@link PageError}, {@link ApiException} (the remote-call policy's {@code 503}
 *   when a called service is down), JAX-RS's own ({@code 404} for an unknown path, {@code 405},
 *   {@code 415}), a refused parameter, and anything unexpected ({@code 500}, logged as class names);</li>
 *   <li>a response filter that turns any JSON error answer still produced (platform-commons' request
 *   filters answer {@code 400} JSON) into the page for its status;</li>
 *   <li>Vert.x's failure and error handlers, for what fails outside Quarkus REST (a body too large,
 *   a path no route serves).</li>
 * </ol>
 * The refusal of a call without a service proof (platform-commons' {@code ServiceProofCheck}) stays
 * JSON: it is only ever seen by a caller that bypassed the gateway.
 */
@Singleton
public class ErrorPages {

    private static final Logger LOG = Logger.getLogger(ErrorPages.class);
    private static final int AHEAD_OF_COMMONS = Priorities.USER - 100;

    private final Template error;

    public ErrorPages(@Location("error.html") Template error) {
        this.error = error;
    }

    public Response page(ErrorView view) {
        return Pages.html(view.status(), error.data("error", view));
    }

    @ServerExceptionMapper(priority = AHEAD_OF_COMMONS)
    public Response pageError(PageError failure) {
        return page(failure.view());
    }

    @ServerExceptionMapper(priority = AHEAD_OF_COMMONS)
    public Response apiException(ApiException failure) {
        return page(ErrorView.forStatus(failure.status()));
    }

    @ServerExceptionMapper(priority = AHEAD_OF_COMMONS)
    public Response validation(ValidationException failure) {
        return page(ErrorView.forStatus(400));
    }

    @ServerExceptionMapper(priority = AHEAD_OF_COMMONS)
    public Response webApplication(WebApplicationException failure) {
        int status = failure.getResponse().getStatus();
        if (status >= 500) {
            LOG.errorf("request failed with status %d: %s", status, Failures.describe(failure));
        }
        return page(ErrorView.forStatus(status));
    }

    @ServerExceptionMapper(priority = AHEAD_OF_COMMONS)
    public Response unexpected(Throwable failure) {
        LOG.errorf("unexpected failure: %s", Failures.describe(failure));
        return page(ErrorView.forStatus(500));
    }

    /** An error answered as JSON by a filter of platform-commons becomes the page for its status. */
    @ServerResponseFilter
    public void noJsonToABrowser(ContainerResponseContext response) {
        if (response.getStatus() >= 400 && response.getMediaType() != null
                && MediaType.APPLICATION_JSON_TYPE.isCompatible(response.getMediaType())) {
            response.setEntity(error.data("error", ErrorView.forStatus(response.getStatus())).render(), new Annotation[0],
                    MediaType.valueOf(Pages.HTML));
        }
    }

    /** Vert.x: a route that failed outside Quarkus REST, and a path no route serves. */
    void install(@Observes Router router) {
        router.route().order(Integer.MIN_VALUE + 1).failureHandler(this::failed);
        router.errorHandler(404, this::failed);
        router.errorHandler(500, this::failed);
    }

    private void failed(RoutingContext context) {
        HttpServerResponse response = context.response();
        if (response.headWritten()) {
            context.next();
            return;
        }
        int status = context.statusCode() >= 400 ? context.statusCode() : 500;
        if (status >= 500 && context.failure() != null) {
            LOG.errorf("request failed with status %d: %s", status, Failures.describe(context.failure()));
        }
        response.setStatusCode(status).putHeader("Content-Type", Pages.HTML)
                .end(error.data("error", ErrorView.forStatus(status)).render());
    }
}
