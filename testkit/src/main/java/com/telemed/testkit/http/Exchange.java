package com.telemed.testkit.http;

import java.net.URI;
import java.util.Locale;
import java.util.Map;

/**
 * One call a test made and the answer it got, as the test-side clients see them ({@link JsonCalls},
 * {@link RawHttp}, REST Assured through {@link RestAssuredExchanges}): for the checks that hold every
 * call of the end-to-end suite to something (the OpenAPI contract, the log scan's record of what
 * was sent). Header names lower-cased; a missing body is an empty array.
 */
public record Exchange(Client client, URI origin, String method, String target, Map<String, String> requestHeaders,
                       byte[] requestBody, int status, String contentType, byte[] responseBody) {

    public enum Client { REST_ASSURED, JSON_CALLS, RAW_HTTP }

    /** The target's path, without its query. */
    public String path() {
        int query = target.indexOf('?');
        return query < 0 ? target : target.substring(0, query);
    }

    /** The target's raw query, empty when none. */
    public String query() {
        int query = target.indexOf('?');
        return query < 0 ? "" : target.substring(query + 1);
    }

    /** {@code scheme://host:port} of a URL, the key calls are told apart by. */
    public static URI originOf(URI url) {
        int port = url.getPort() >= 0 ? url.getPort() : "https".equalsIgnoreCase(url.getScheme()) ? 443 : 80;
        return URI.create(url.getScheme().toLowerCase(Locale.ROOT) + "://" + url.getHost().toLowerCase(Locale.ROOT) + ":" + port);
    }
}
