package com.telemed.common.error;

import io.vertx.core.Future;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.HttpVersion;

/**
 * A JSON answer given before the request's body was read (a refused proof, a full upload slot, the
 * gateway's own refusals). On HTTP/1.x the connection cannot carry another call after an unread
 * body, so it says {@code Connection: close} and is closed once the answer is written (not through
 * an end handler, which access logs own); on HTTP/2 the stream ends alone, since closing would cut
 * the connection's other streams. Headers the caller set on the response before go out with it.
 */
public final class EarlyAnswers {

    private EarlyAnswers() {
    }

    /** Answers {@code status} with the JSON {@code body} and closes an HTTP/1.x connection after it. */
    public static void answerAndClose(HttpServerRequest request, int status, String body) {
        HttpServerResponse response = request.response();
        boolean http1 = request.version() != HttpVersion.HTTP_2;
        if (http1) {
            response.putHeader("Connection", "close");
        }
        Future<Void> written = response.setStatusCode(status).putHeader("Content-Type", "application/json").end(body);
        if (http1) {
            written.onComplete(ignored -> response.close());
        }
    }
}
