package com.telemed.gateway.identity;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The bearer values {@code /ops} takes in {@code Authorization: Bearer <value>}
 * (people-and-pages.md, "Credentials on /ops"), told apart by their form alone, before any lookup:
 * a session token of a local account ({@code ops_} + 32 lowercase hex), a pharmacy key
 * ({@code phk_} + 32 lowercase hex), or anything else. Anything else is refused
 * {@code 401 Invalid token} today; an OpenID Connect access token (a JWT) is what a later part of
 * issue #40 verifies there ({@link Kind#OTHER}).
 */
public final class BearerTokens {

    public static final String SESSION_PREFIX = "ops_";
    public static final String PHARMACY_KEY_PREFIX = "phk_";

    private static final Pattern SESSION = Pattern.compile("ops_[0-9a-f]{32}");
    private static final Pattern PHARMACY_KEY = Pattern.compile("phk_[0-9a-f]{32}");
    /** RFC 6750: the scheme is case-insensitive, one or more spaces, then the value. */
    private static final Pattern BEARER = Pattern.compile("(?i)bearer +(\\S+) *");

    public enum Kind {
        /** {@code ops_...}: a session of a local account. */
        SESSION,
        /** {@code phk_...}: a pharmacy credential. */
        PHARMACY_KEY,
        /** Anything else: unknown today; the seam where OpenID Connect bearer tokens will be verified. */
        OTHER
    }

    private BearerTokens() {
    }

    /** The value of an {@code Authorization: Bearer <value>} header; empty for any other header. */
    public static Optional<String> token(String authorization) {
        if (authorization == null) {
            return Optional.empty();
        }
        var bearer = BEARER.matcher(authorization);
        return bearer.matches() ? Optional.of(bearer.group(1)) : Optional.empty();
    }

    public static Kind kind(String token) {
        if (SESSION.matcher(token).matches()) {
            return Kind.SESSION;
        }
        if (PHARMACY_KEY.matcher(token).matches()) {
            return Kind.PHARMACY_KEY;
        }
        return Kind.OTHER;
    }
}
