package com.telemed.gateway.identity;

import com.telemed.common.access.Principal;
import com.telemed.common.id.Ids;
import io.quarkus.oidc.AccessTokenCredential;
import io.quarkus.security.identity.IdentityProviderManager;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.TokenAuthenticationRequest;
import io.quarkus.vertx.http.runtime.security.HttpSecurityUtils;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.jboss.logging.Logger;

/**
 * OpenID Connect access tokens on {@code /ops} (people-and-pages.md, "Credentials on /ops";
 * docs/security.md, "People on /ops"): a bearer value that is neither a session nor a pharmacy key
 * ({@link BearerTokens.Kind#OTHER}) is handed to quarkus-oidc ({@link OidcTenant}), which checks its
 * signature against the provider's keys, its issuer, audience and expiry. What a verified token says
 * of its person is read here ({@link VerifiedPerson}); the edge then finds or provisions the account.
 * The edge calls this itself, so quarkus-oidc's own HTTP authentication stays lazy
 * ({@code quarkus.http.auth.proactive=false}) and never judges an {@code ops_}/{@code phk_} bearer or an
 * {@code x-ops-key} call. A refused token is logged by the failure's class only, never the token.
 */
@ApplicationScoped
public class OidcTokens {

    private static final Logger LOG = Logger.getLogger(OidcTokens.class);
    /**
     * Where {@link #verify} leaves a verified token's expiry (its {@code exp}, an {@link Instant}) in the
     * call's routing context, for {@code GET /ops/v1/sessions/current} ({@link SessionResource}).
     */
    public static final String EXPIRES_AT = OidcTokens.class.getName() + ".expiresAt";
    /** An account's name (IdentitySchemas): 1 to 200 characters on one line. */
    private static final Pattern NAME = Pattern.compile("[^\\p{Cntrl}\\u2028\\u2029]{1,200}");

    /**
     * What a verified token says of its person: the roles of its configured claim that name a role,
     * the {@code prescriber_id} claim, the {@code email} when {@code email_verified} is true, and a
     * name for a new account (the {@code name} claim, else the email).
     */
    public record VerifiedPerson(Set<Principal.Role> roles, Optional<UUID> prescriberId, Optional<String> verifiedEmail,
                                 String name) {
    }

    private final IdentityProviderManager identities;
    private final boolean enabled;

    public OidcTokens(IdentityProviderManager identities, IdentityConfig config) {
        this.identities = identities;
        this.enabled = OidcTenant.tenant(config.oidc()).isPresent();
    }

    /** Whether an issuer is set: without one every such token is refused and no provider is called. */
    public boolean enabled() {
        return enabled;
    }

    /**
     * The person a token names once quarkus-oidc verified it; empty for any token it refuses, or one
     * whose {@code prescriber_id} is no prescriber id. Completes on the calling event loop. A verified
     * token's expiry goes into the routing context under {@link #EXPIRES_AT}.
     */
    public Future<Optional<VerifiedPerson>> verify(RoutingContext context, String token) {
        if (!enabled) {
            return Future.succeededFuture(Optional.empty());
        }
        Context caller = Vertx.currentContext();
        Promise<Optional<VerifiedPerson>> verified = Promise.promise();
        var request = new TokenAuthenticationRequest(new AccessTokenCredential(token));
        HttpSecurityUtils.setRoutingContextAttribute(request, context);
        identities.authenticate(request).subscribe().with(
                identity -> on(caller, () -> {
                    expiresAt(identity).ifPresent(expiry -> context.put(EXPIRES_AT, expiry));
                    verified.complete(person(identity));
                }),
                failure -> on(caller, () -> {
                    LOG.infof("OpenID Connect token refused: %s", reason(failure));
                    verified.complete(Optional.empty());
                }));
        return verified.future();
    }

    private static void on(Context context, Runnable action) {
        if (context == null) {
            action.run();
        } else {
            context.runOnContext(ignored -> action.run());
        }
    }

    /** The failure's classes, outermost first (quarkus-oidc wraps jose4j's): no message, which could quote a claim. */
    private static String reason(Throwable failure) {
        StringBuilder reason = new StringBuilder(failure.getClass().getName());
        for (Throwable cause = failure.getCause(); cause != null && cause != cause.getCause(); cause = cause.getCause()) {
            reason.append(" <- ").append(cause.getClass().getName());
        }
        return reason.toString();
    }

    /** A verified token's {@code exp} (quarkus-oidc refuses a token without one). */
    static Optional<Instant> expiresAt(SecurityIdentity identity) {
        return identity.getPrincipal() instanceof JsonWebToken jwt && jwt.getExpirationTime() > 0
                ? Optional.of(Instant.ofEpochSecond(jwt.getExpirationTime()))
                : Optional.empty();
    }

    static Optional<VerifiedPerson> person(SecurityIdentity identity) {
        if (!(identity.getPrincipal() instanceof JsonWebToken jwt)) {
            return Optional.empty();
        }
        EnumSet<Principal.Role> roles = EnumSet.noneOf(Principal.Role.class);
        identity.getRoles().forEach(role -> Principal.Role.of(role).ifPresent(roles::add));
        Optional<String> prescriberClaim = text(jwt.getClaim("prescriber_id"));
        Optional<UUID> prescriberId = prescriberClaim.flatMap(Ids::uuid);
        if (prescriberClaim.isPresent() && prescriberId.isEmpty()) {
            LOG.info("OpenID Connect token refused: its prescriber_id is no prescriber id");
            return Optional.empty();
        }
        Optional<String> email = text(jwt.getClaim("email"))
                .filter(value -> isTrue(jwt.getClaim("email_verified")));
        String name = text(jwt.getClaim("name")).map(String::strip).filter(value -> NAME.matcher(value).matches())
                .or(() -> email).orElse("");
        return Optional.of(new VerifiedPerson(roles, prescriberId, email, name));
    }

    private static Optional<String> text(Object claim) {
        if (claim instanceof JsonString string) {
            return Optional.of(string.getString());
        }
        return claim instanceof String string && !string.isBlank() ? Optional.of(string) : Optional.empty();
    }

    private static boolean isTrue(Object claim) {
        return Boolean.TRUE.equals(claim) || JsonValue.TRUE.equals(claim)
                || (claim instanceof JsonString string && "true".equals(string.getString()))
                || "true".equals(claim);
    }
}
