package com.telemed.gateway.identity;

import com.telemed.common.access.Principal;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * Test only: a route among the gateway's own {@code /ops} endpoints (a Vert.x route, not a JAX-RS
 * resource, so no operation of the API) that answers what the edge handed it: the
 * {@code X-Principal} header and the principal in the routing context (interfaces of issue #40,
 * item 3: how the gateway's own endpoints learn who calls).
 */
@ApplicationScoped
public class PrincipalEcho {

    static final String PATH = "/ops/v1/accounts/test-principal-echo";

    void install(@Observes Router router) {
        router.get(PATH).order(Integer.MIN_VALUE + 10).handler(context -> {
            Principal principal = context.get(Principal.HEADER);
            context.response().putHeader("Content-Type", "application/json").end(new JsonObject()
                    .put("header", context.request().getHeader(Principal.HEADER))
                    .put("context", principal == null ? null : principal.header())
                    .encode());
        });
    }
}
