package com.telemed.gateway.edge;

import com.telemed.common.error.EarlyAnswers;
import io.vertx.core.Future;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/** The gateway's own answers: always the platform's JSON error body. */
final class EdgeResponses {

    private EdgeResponses() {
    }

    static Future<Void> error(HttpServerResponse response, int status, Object error) {
        if (response.headWritten()) {
            // Too late for a status: the service already started answering.
            response.reset();
            return Future.succeededFuture();
        }
        return response.setStatusCode(status)
                .putHeader("Content-Type", "application/json")
                .end(new JsonObject().put("error", error).encode());
    }

    /** The contract's issue array: one {@code Invalid character} issue per query parameter named. */
    static void issuesAndClose(HttpServerRequest request, List<String> parameters) {
        JsonArray issues = new JsonArray();
        for (String parameter : parameters) {
            issues.add(new JsonObject()
                    .put("code", "custom")
                    .put("path", new JsonArray().add(parameter))
                    .put("message", "Invalid character"));
        }
        errorAndClose(request, 400, issues);
    }

    /** Answers before the body was read ({@link EarlyAnswers}); too late for a status, the answer is reset. */
    static void errorAndClose(HttpServerRequest request, int status, Object error) {
        if (request.response().headWritten()) {
            request.response().reset();
            return;
        }
        EarlyAnswers.answerAndClose(request, status, new JsonObject().put("error", error).encode());
    }
}
