package com.telemed.gateway.identity;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.common.access.Caller;
import com.telemed.common.access.Principal;
import com.telemed.common.error.ErrorBody;
import com.telemed.common.validation.Binding;
import io.vertx.ext.web.RoutingContext;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Instant;
import java.util.Optional;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirements;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Sign-in and sign-out of local accounts (people-and-pages.md, "Credentials on /ops"). The sign-in
 * takes no credential (the edge lets exactly {@code POST /ops/v1/sessions} through without one);
 * sign-out ends the session whose token authenticated the call; {@code GET .../current} says who is
 * signed in (the console reads it after a sign-in: interfaces of issue #41, A), for a session token or
 * an OpenID Connect token alike.
 */
@Path("/ops/v1/sessions")
@Produces(MediaType.APPLICATION_JSON)
public class SessionResource {

    static final String FORBIDDEN = "Forbidden";

    private final SignIns signIns;
    private final Caller caller;

    public SessionResource(SignIns signIns, Caller caller) {
        this.signIns = signIns;
        this.caller = caller;
    }

    @Tag(name = "Accounts")
    @Operation(operationId = "signIn", summary = "Sign in with a local account: a session token of 12 hours, shown once")
    @SecurityRequirements
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(ref = "SignInBody")))
    @APIResponse(responseCode = "201", description = "Signed in", content = @Content(mediaType = "application/json", schema = @Schema(ref = "Session")))
    @APIResponse(responseCode = "400", ref = "ValidationFailed")
    @APIResponse(responseCode = "401", ref = "SignInRefused")
    @APIResponse(responseCode = "429", ref = "SignInLimited")
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response signIn(JsonNode body) {
        IdentitySchemas.SignInInput input = Binding.bind(IdentitySchemas.SIGN_IN, body, IdentitySchemas.SignInInput.class);
        try {
            return Response.status(201).entity(signIns.signIn(input)).build();
        } catch (SignIns.Limited limited) {
            return Response.status(429).header("Retry-After", limited.retryAfterSeconds())
                    .entity(ErrorBody.of("Too Many Requests")).build();
        }
    }

    @Tag(name = "Accounts")
    @Operation(operationId = "currentSession", summary = "Who is signed in: the account of the person this call's bearer credential names, and when that credential expires")
    @APIResponse(responseCode = "200", description = "The account, with the roles the call acts with; `expiresAt` the session's expiry, or an OpenID Connect token's `exp`", content = @Content(mediaType = "application/json", schema = @Schema(ref = "CurrentSession")))
    @APIResponse(responseCode = "401", ref = "OpsUnauthorized")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    @GET
    @Path("/current")
    public Response current(@HeaderParam("Authorization") String authorization, @Context RoutingContext context) {
        Optional<Principal> person = caller.principal().filter(principal -> principal.type() == Principal.Type.PERSON);
        if (person.isEmpty()) {
            // The operator key (a pharmacy key never gets here: OpsAccess): no person is signed in.
            return Response.status(403).entity(ErrorBody.of(FORBIDDEN)).build();
        }
        Optional<String> session = BearerTokens.token(authorization)
                .filter(token -> BearerTokens.kind(token) == BearerTokens.Kind.SESSION);
        Optional<Instant> tokenExpiresAt = Optional.ofNullable(context.<Instant>get(OidcTokens.EXPIRES_AT));
        return Response.ok(signIns.current(person.get(), session, tokenExpiresAt)).build();
    }

    @Tag(name = "Accounts")
    @Operation(operationId = "signOut", summary = "End the session whose token this call carries")
    @APIResponse(responseCode = "204", description = "Signed out: the token is refused from the next call on")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    @DELETE
    @Path("/current")
    public Response signOut(@HeaderParam("Authorization") String authorization) {
        Optional<String> session = BearerTokens.token(authorization)
                .filter(token -> BearerTokens.kind(token) == BearerTokens.Kind.SESSION);
        if (session.isEmpty()) {
            // The operator key or a pharmacy key: no session to end.
            return Response.status(403).entity(ErrorBody.of(FORBIDDEN)).build();
        }
        signIns.end(session.get());
        return Response.noContent().build();
    }
}
