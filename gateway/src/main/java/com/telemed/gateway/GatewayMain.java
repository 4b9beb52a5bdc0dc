package com.telemed.gateway;

import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.annotations.QuarkusMain;

/**
 * The gateway's entry point. Before Quarkus starts it turns off Quarkus's own request-target
 * check, which answers a malformed target (a bad percent escape) with an empty 400 before any
 * handler of the gateway runs; the edge checks every target itself ({@code edge.RequestTarget})
 * and answers with the platform's JSON error. A value set on the command line is left as it is.
 */
@QuarkusMain
public final class GatewayMain {

    static final String URI_VALIDATION_OFF = "vertx.disableURIValidation";

    public static void main(String... args) {
        if (System.getProperty(URI_VALIDATION_OFF) == null) {
            System.setProperty(URI_VALIDATION_OFF, "true");
        }
        Quarkus.run(args);
    }
}
