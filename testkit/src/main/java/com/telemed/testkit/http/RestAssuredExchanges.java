package com.telemed.testkit.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.restassured.RestAssured;
import io.restassured.filter.Filter;
import io.restassured.filter.FilterContext;
import io.restassured.http.Header;
import io.restassured.response.Response;
import io.restassured.specification.FilterableRequestSpecification;
import io.restassured.specification.FilterableResponseSpecification;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A REST Assured filter reporting every call's {@link Exchange} to {@link Exchanges}, installed once
 * per JVM among REST Assured's global filters (so every {@code given()} of a test goes through it).
 * The answer's body is read here; REST Assured keeps it for the test's own assertions.
 */
public final class RestAssuredExchanges implements Filter {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final AtomicBoolean INSTALLED = new AtomicBoolean();

    /** Adds the filter to REST Assured's global ones, once per JVM. */
    public static void install() {
        if (INSTALLED.compareAndSet(false, true)) {
            RestAssured.filters(new RestAssuredExchanges());
        }
    }

    @Override
    public Response filter(FilterableRequestSpecification request, FilterableResponseSpecification response, FilterContext context) {
        Response answer = context.next(request, response);
        URI uri;
        try {
            uri = URI.create(request.getURI());
        } catch (IllegalArgumentException notAUri) {
            return answer; // nothing to tell it apart by
        }
        Map<String, String> headers = new LinkedHashMap<>();
        for (Header header : request.getHeaders()) {
            headers.put(header.getName().toLowerCase(Locale.ROOT), header.getValue());
        }
        String target = (uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath())
                + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        String contentType = answer.getContentType();
        Exchanges.answered(new Exchange(Exchange.Client.REST_ASSURED, Exchange.originOf(uri), request.getMethod(), target, headers,
                bytes(request.getBody()), answer.getStatusCode(), contentType == null || contentType.isEmpty() ? null : contentType,
                answer.asByteArray()));
        return answer;
    }

    /** The body as REST Assured holds it before sending: text, bytes, or an object it writes as JSON. */
    private static byte[] bytes(Object body) {
        if (body == null) {
            return new byte[0];
        }
        if (body instanceof byte[] raw) {
            return raw;
        }
        if (body instanceof String text) {
            return text.getBytes(StandardCharsets.UTF_8);
        }
        try {
            return JSON.writeValueAsBytes(body);
        } catch (JsonProcessingException notJson) {
            return String.valueOf(body).getBytes(StandardCharsets.UTF_8);
        }
    }
}
