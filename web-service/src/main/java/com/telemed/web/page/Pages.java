package com.telemed.web.page;

import io.quarkus.qute.TemplateInstance;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/** How a page answers: rendered HTML with its status, or a {@code 303} to another page. */
public final class Pages {

    public static final String HTML = "text/html;charset=UTF-8";

    private Pages() {
    }

    public static Response html(int status, TemplateInstance page) {
        return Response.status(status).type(HTML).entity(page.render()).build();
    }

    /**
     * {@code 303 See Other} to {@code location} as given: a path of this service ({@code /book/...}), kept
     * relative so the browser stays on the address it used, or a partner's absolute URL.
     */
    public static Response seeOther(String location) {
        return Response.status(303).header(HttpHeaders.LOCATION, location).build();
    }

    /** A value for a path segment or a query parameter ({@code Europe/Berlin} -> {@code Europe%2FBerlin}). */
    public static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
