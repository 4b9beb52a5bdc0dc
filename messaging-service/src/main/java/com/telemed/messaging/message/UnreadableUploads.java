package com.telemed.messaging.message;

import com.telemed.common.error.ErrorMappers;
import com.telemed.common.error.ErrorResponses;
import com.telemed.messaging.attachment.Upload;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * An upload whose {@code multipart/form-data} body Quarkus REST cannot read, before the resource
 * is called: no delimiter of the boundary its {@code Content-Type} names (a wrong boundary), a body
 * that ends before its closing delimiter, part headers that are no headers, an unterminated quoted
 * boundary, more parts than the form takes. Its parser fails with an {@link IOException}, its
 * {@code MalformedMessageException}, a bare {@link RuntimeException} or an index out of bounds,
 * which platform-commons' catch-all answered {@code 500}. No file part could be read from such a
 * body: {@code 400 {"error":"No file uploaded"}}, the contract's answer for a body without one (as
 * a body whose {@code Content-Type} names no boundary already got). A failure that did not arise
 * while the body was read stays the catch-all's.
 */
public class UnreadableUploads {

    /** Quarkus REST's step that reads a form body, and the package of its multipart parser. */
    private static final String FORM_READER = "org.jboss.resteasy.reactive.server.handlers.FormBodyHandler";
    private static final String MULTIPART_PARSER = "org.jboss.resteasy.reactive.server.core.multipart.";

    private final ErrorMappers platform = new ErrorMappers();

    @ServerExceptionMapper
    public Response unreadable(IOException e) {
        return readingTheBody(e) ? ErrorResponses.of(400, "No file uploaded") : platform.unexpected(e);
    }

    @ServerExceptionMapper
    public Response unreadable(RuntimeException e) {
        return readingTheBody(e) ? ErrorResponses.of(400, "No file uploaded") : platform.unexpected(e);
    }

    /** Whether the failure arose while Quarkus REST read a form body (its own frames, or a cause's). */
    static boolean readingTheBody(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            for (StackTraceElement frame : cause.getStackTrace()) {
                String type = frame.getClassName();
                if (type.equals(FORM_READER) || type.startsWith(MULTIPART_PARSER)) {
                    return true;
                }
            }
        }
        return false;
    }
}
