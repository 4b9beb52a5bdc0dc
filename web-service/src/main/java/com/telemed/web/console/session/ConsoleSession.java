package com.telemed.web.console.session;

import com.telemed.common.access.Principal.Role;
import java.time.Instant;
import java.util.List;

/**
 * What the console's cookie holds, sealed ({@link SessionSeal}): the gateway's session token (the
 * console calls {@code /ops} with it as {@code Authorization: Bearer}), who signed in (account id, name,
 * roles, prescriber id or null), the form token every form of the session carries ({@code csrf}), and
 * when the session began and was last used (the absolute and idle limits), and when its token ends: an
 * OpenID Connect access token's {@code exp} (the session never outlives it), null for the gateway's own
 * sessions (their 12 hours are the console's absolute limit).
 */
public record ConsoleSession(String token, String accountId, String name, List<String> roles, String prescriberId,
                             String csrf, Instant signedInAt, Instant lastSeenAt, Instant expiresAt) {

    public ConsoleSession {
        roles = roles == null ? List.of() : List.copyOf(roles);
    }

    /** A session whose token has no expiry of its own (a password sign-in's gateway session). */
    public ConsoleSession(String token, String accountId, String name, List<String> roles, String prescriberId,
                          String csrf, Instant signedInAt, Instant lastSeenAt) {
        this(token, accountId, name, roles, prescriberId, csrf, signedInAt, lastSeenAt, null);
    }

    public boolean has(Role role) {
        return roles.contains(role.wire());
    }

    public boolean hasAny(Role... any) {
        for (Role role : any) {
            if (has(role)) {
                return true;
            }
        }
        return false;
    }

    /** A prescriber in person: the role and the prescriber it names. */
    public boolean prescriber() {
        return has(Role.PRESCRIBER) && prescriberId != null;
    }

    /**
     * The token is one of the gateway's own sessions ({@code ops_...}, a password sign-in), which the gateway
     * ends on sign-out; otherwise it is the provider's access token (an OpenID Connect sign-in).
     */
    public boolean gatewaySession() {
        return token.startsWith("ops_");
    }

    /** Where signing in leads: the queue for whoever may read it, else the audit log (an administrator only). */
    public String home() {
        return !hasAny(Role.PRESCRIBER, Role.SUPPORT) && has(Role.ADMIN) ? "/console/audit" : "/console/queue";
    }

    ConsoleSession seenAt(Instant at) {
        return new ConsoleSession(token, accountId, name, roles, prescriberId, csrf, signedInAt, at, expiresAt);
    }
}
