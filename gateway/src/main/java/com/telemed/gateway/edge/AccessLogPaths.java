package com.telemed.gateway.edge;

import java.util.regex.Pattern;

/**
 * The path as the access log writes it: a path segment that is a bearer token (whoever holds it
 * may use it) is written as {@value #REDACTED}. Today that is the segment after {@code bookings}
 * or {@code book}, anywhere in the path and in any case: the booking token of
 * {@code /ops/v1/bookings/:token/appointment} (operations-api.md) and of the booking link itself,
 * {@code <base>/book/:token} (decisions.md), whose default base is the gateway. Survey tokens
 * travel in the query or the body, which the access log never writes. A route that puts a token
 * in its path (attachment links, when messaging defines them) joins {@link #TOKEN_SEGMENT}.
 */
final class AccessLogPaths {

    static final String REDACTED = "[redacted]";

    /** A segment named after a token-carrying route, then the token segment itself. */
    private static final Pattern TOKEN_SEGMENT = Pattern.compile("(?i)(/(?:bookings|book)/+)[^/]+");

    private AccessLogPaths() {
    }

    static String redact(String path) {
        return TOKEN_SEGMENT.matcher(path).replaceAll("$1" + REDACTED);
    }
}
