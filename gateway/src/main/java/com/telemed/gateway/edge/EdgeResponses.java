package com.telemed.gateway.edge;

import io.vertx.core.Future;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;

/** The gateway's own answers: always the platform's JSON error body. */
final class EdgeResponses {

    private EdgeResponses() {
    }

    static Future<Void> error(HttpServerResponse response, int status, String error) {
        if (response.headWritten()) {
            // Too late for a status: the service already started answering.
            response.reset();
            return Future.succeededFuture();
        }
        return response.setStatusCode(status)
                .putHeader("Content-Type", "application/json")
                .end(new JsonObject().put("error", error).encode());
    }

    /**
     * Answers before the body was read: the connection cannot be reused for another call, so it
     * is closed once the answer is written (not through an end handler: the access log owns it).
     */
    static void errorAndClose(HttpServerResponse response, int status, String error) {
        if (!response.headWritten()) {
            response.putHeader("Connection", "close");
        }
        error(response, status, error).onComplete(ignored -> response.close());
    }
}
