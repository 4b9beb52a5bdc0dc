package com.telemed.gateway.edge;

import com.telemed.common.access.OpsAccessFilter;
import com.telemed.common.access.Principal;
import com.telemed.common.request.RequestIds;
import com.telemed.common.trust.ServiceProof;
import com.telemed.common.trust.ServiceTrust;
import com.telemed.gateway.identity.BearerTokens;
import com.telemed.gateway.identity.LocalAccounts;
import com.telemed.gateway.identity.OidcTokens;
import com.telemed.gateway.partner.Keys;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;
import org.jboss.logging.MDC;

/**
 * The only door: every call passes here first. It assigns the request id, authenticates by
 * surface (the public surface, attachment links, takes no credential and only reads; the pages take
 * none either and may post forms; the gateway's internal endpoint takes a service proof), answers
 * CORS, and hands the call to its service (or to the gateway's own endpoints), writing one
 * access-log line per call. Paths outside the routing table get 404.
 */
@ApplicationScoped
public class Edge {

    private static final Logger ACCESS = Logger.getLogger("access");
    private static final Logger LOG = Logger.getLogger(Edge.class);
    private static final Pattern REQUEST_ID = Pattern.compile("[A-Za-z0-9._:-]{1,128}");
    private static final String PARTNER_ATTRIBUTE = "partnerId";
    private static final Set<String> PUBLIC_METHODS = Set.of("GET", "HEAD");
    /** What a page is asked with: links and plain HTML forms (a browser's form sends GET or POST). */
    private static final Set<String> PAGE_METHODS = Set.of("GET", "HEAD", "POST");
    /** The query parameter of a hosted survey page that carries the partner's publishable key. */
    static final String PAGE_KEY_PARAMETER = "key";
    /**
     * What the services' HTTP codec takes (an initial line of 4,096 bytes, headers of 20 KB),
     * with room for the method, the version and the headers the gateway adds. The gateway's own
     * codec takes 64 KB of each (application.properties), so a longer URI or header block gets the
     * platform's JSON error here rather than the codec's empty 414/431, which no handler of
     * Quarkus can shape. Past 64 KB the codec still answers bare (quarkusio/quarkus#55082).
     */
    static final int MAX_URI_LENGTH = 4_000;
    static final int MAX_HEADER_BYTES = 16 * 1024;

    private final Proxy proxy;
    private final Credentials credentials;
    private final SubmissionLimits submissionLimits;
    private final GatewayConfig config;
    private final ServiceTrust trust;
    private final LocalAccounts localAccounts;
    private final OidcTokens oidcTokens;
    private final Optional<String> opsKeyHash;
    /** Whether the services judge {@code /ops} access as in production ({@code access.OpsAccessFilter}'s rule). */
    private final boolean production;

    public Edge(Proxy proxy, Credentials credentials, SubmissionLimits submissionLimits, GatewayConfig config,
                ServiceTrust trust, LocalAccounts localAccounts, OidcTokens oidcTokens,
                @ConfigProperty(name = OpsAccessFilter.ENVIRONMENT, defaultValue = "production") String accessEnvironment) {
        this.proxy = proxy;
        this.credentials = credentials;
        this.submissionLimits = submissionLimits;
        this.config = config;
        this.trust = trust;
        this.localAccounts = localAccounts;
        this.oidcTokens = oidcTokens;
        this.opsKeyHash = config.opsApiKey().filter(key -> !key.isBlank()).map(Keys::hash);
        this.production = !"sandbox".equals(accessEnvironment);
    }

    void install(@Observes Router router) {
        router.route().order(Integer.MIN_VALUE).handler(this::handle);
    }

    void warnWithoutOpsKey(@Observes StartupEvent started) {
        if (opsKeyHash.isEmpty()) {
            LOG.warn("OPS_API_KEY is not set: every /ops call will be refused");
        }
    }

    private void handle(RoutingContext context) {
        HttpServerRequest request = context.request();
        HttpServerResponse response = context.response();
        long began = System.nanoTime();
        String requestId = requestId(request.getHeader("X-Request-Id"));
        request.headers().set("X-Request-Id", requestId);
        // The trace context the service continues: this call's span (Quarkus's OpenTelemetry continued
        // the client's traceparent or started a trace), put where the forward copies headers from. Set
        // here, on the call's own context: the forward runs after the credential lookup, whose callback
        // may not carry it.
        W3CTraceContextPropagator.getInstance().inject(Context.current(), request.headers(), MultiMap::set);
        response.putHeader("X-Request-Id", requestId);
        // The log context of the call (JSON lines in a deployment): its request id now, its partner
        // once the key is authenticated; nothing of an earlier call on this thread.
        MDC.put(RequestIds.MDC_KEY, requestId);
        MDC.remove(RequestIds.PARTNER_MDC_KEY);
        RequestTarget.Verdict target = RequestTarget.check(request.uri());
        String path = target instanceof RequestTarget.NotAUri ? "[not a URI]" : context.normalizedPath();
        // A service's proof covers the partner header it sent, so an internal call is judged before
        // the edge drops that header, as it drops every client's.
        ServiceProof.Verdict proof = path.startsWith("/internal/") ? trust.verify(request) : null;
        request.headers().remove(Proxy.PARTNER_HEADER);
        // Who calls is the edge's to say (issue #40): a client's own principal goes nowhere, on every
        // surface; an authenticated /ops call gets the one the edge found.
        request.headers().remove(Principal.HEADER);
        // Concatenated rather than formatted: this runs on every call. The path carries ids, and
        // tokens that are written redacted (AccessLogPaths); the query string (search terms, emails,
        // survey tokens) is never logged.
        response.endHandler(ended -> ACCESS.info(request.method() + " " + AccessLogPaths.redact(path) + " " + response.getStatusCode()
                + " " + (System.nanoTime() - began) / 1_000_000 + "ms partner=" + context.<String>get(PARTNER_ATTRIBUTE, "-")
                + " req=" + requestId));

        if (request.uri().length() > MAX_URI_LENGTH) {
            EdgeResponses.errorAndClose(request, 414, "URI Too Long");
            return;
        }
        if (target instanceof RequestTarget.NotAUri) {
            EdgeResponses.errorAndClose(request, 400, "Bad Request");
            return;
        }
        if (target instanceof RequestTarget.InvalidParameters invalid) {
            EdgeResponses.issuesAndClose(request, invalid.names());
            return;
        }
        if (headerBytes(request) > MAX_HEADER_BYTES) {
            EdgeResponses.errorAndClose(request, 431, "Request Header Fields Too Large");
            return;
        }
        if (path.startsWith("/q/")) {
            context.next();
            return;
        }
        Optional<Routes.Route> route = Routes.resolve(path);
        UriTemplates.tag(request, path);
        if (route.isEmpty()) {
            EdgeResponses.error(response, 404, "Not Found");
            return;
        }
        Upstream upstream = route.get().upstream();
        switch (route.get().surface()) {
            case PARTNER -> partnerCall(context, path, upstream, requestId);
            case EMBED -> embedCall(context, path, upstream, requestId);
            case OPS -> opsCall(context, path, upstream, requestId);
            case PUBLIC -> publicCall(context, path, upstream, requestId);
            case PAGE -> pageCall(context, path, upstream, requestId);
            case INTERNAL -> internalCall(context, proof);
        }
    }

    private static int headerBytes(HttpServerRequest request) {
        int bytes = 0;
        for (var header : request.headers()) {
            bytes += header.getKey().length() + header.getValue().length() + 4;
        }
        return bytes;
    }

    private void partnerCall(RoutingContext context, String path, Upstream upstream, String requestId) {
        HttpServerRequest request = context.request();
        HttpServerResponse response = context.response();
        Cors.allowAnyOrigin(response);
        if (Cors.isPreflight(request)) {
            Cors.answerPreflight(request, response, false);
            return;
        }
        String apiKey = request.getHeader("x-api-key");
        if (apiKey == null || apiKey.isBlank()) {
            EdgeResponses.errorAndClose(request, 401, "API Key missing");
            return;
        }
        request.pause();
        lookup(context, credentials.partnerForApiKey(apiKey), partner -> {
            if (partner.isEmpty()) {
                EdgeResponses.errorAndClose(request, 401, "Invalid API Key");
                return;
            }
            context.put(PARTNER_ATTRIBUTE, partner.get());
            MDC.put(RequestIds.PARTNER_MDC_KEY, partner.get());
            proxy.forward(request, path, upstream, partner.get(), null, requestId);
        });
    }

    private void embedCall(RoutingContext context, String path, Upstream upstream, String requestId) {
        HttpServerRequest request = context.request();
        HttpServerResponse response = context.response();
        String origin = request.getHeader("Origin");
        request.pause();
        if (Cors.isPreflight(request)) {
            // A preflight carries no key: it may go on when some partner allows the origin.
            Future<Boolean> allowedOrigin = Cors.isLocalDevelopmentOrigin(origin, config.environment().orElse(null))
                    ? Future.succeededFuture(true)
                    : origin == null ? Future.succeededFuture(false) : credentials.anyPartnerAllowsOrigin(origin);
            lookup(context, allowedOrigin, allowed -> {
                if (allowed) {
                    Cors.allowOrigin(response, origin);
                    Cors.answerPreflight(request, response, true);
                } else {
                    EdgeResponses.errorAndClose(request, 403, "Origin not allowed");
                }
            });
            return;
        }
        String publishableKey = request.getHeader("x-service-publishable-key");
        if (publishableKey == null || publishableKey.isBlank()) {
            EdgeResponses.errorAndClose(request, 401, "Invalid publishable key");
            return;
        }
        lookup(context, credentials.partnerForPublishableKey(publishableKey), partner -> {
            if (partner.isEmpty()) {
                EdgeResponses.errorAndClose(request, 401, "Invalid publishable key");
                return;
            }
            Credentials.EmbedPartner found = partner.get();
            if (!Cors.isLocalDevelopmentOrigin(origin, config.environment().orElse(null))
                    && (origin == null || !found.origins().contains(origin))) {
                EdgeResponses.errorAndClose(request, 403, "Origin not allowed");
                return;
            }
            Cors.allowOrigin(response, origin);
            context.put(PARTNER_ATTRIBUTE, found.partnerId());
            MDC.put(RequestIds.PARTNER_MDC_KEY, found.partnerId());
            if (request.method() == HttpMethod.POST && !withinSubmissionLimits(request, found.partnerId())) {
                return;
            }
            proxy.forward(request, path, upstream, found.partnerId(), null, requestId);
        });
    }

    /**
     * An operator call: authenticated by exactly one credential (people-and-pages.md, "Credentials on
     * /ops"; docs/security.md, "People on /ops"), which becomes the call's {@link Principal}:
     * {@code x-ops-key} as before (same errors) the operator key; else {@code Authorization: Bearer}
     * with a session token of a local account ({@code ops_...}, while local accounts are on) a
     * person, or a pharmacy key ({@code phk_...}) a pharmacy, or an OpenID Connect access token that
     * quarkus-oidc verifies (while an issuer is set) a person; any other bearer value, or one that is
     * unknown, expired, ended or revoked, {@code 401 Invalid token}. Neither header:
     * {@code 401 Ops Key missing}. The sign-in itself ({@code POST /ops/v1/sessions}) takes none.
     * With local accounts off, their routes answer {@code 404} before any credential is looked at
     * ({@code GET /ops/v1/sessions/current} is not one: an OpenID Connect person asks it too).
     */
    private void opsCall(RoutingContext context, String path, Upstream upstream, String requestId) {
        HttpServerRequest request = context.request();
        if (Routes.isLocalAccountRoute(request.method().name(), path) && !localAccounts.enabled()) {
            EdgeResponses.errorAndClose(request, 404, "Not Found");
            return;
        }
        if (Routes.isSignIn(request.method().name(), path)) {
            opsAuthenticated(context, path, upstream, requestId, null, false);
            return;
        }
        String opsKey = request.getHeader("x-ops-key");
        if (opsKey != null && !opsKey.isBlank()) {
            if (opsKeyHash.isEmpty() || !Keys.matches(opsKey, opsKeyHash.get())) {
                EdgeResponses.errorAndClose(request, 401, "Invalid Ops Key");
                return;
            }
            opsAuthenticated(context, path, upstream, requestId, Principal.operatorKey(), false);
            return;
        }
        String authorization = request.getHeader("Authorization");
        if (authorization == null || authorization.isBlank()) {
            EdgeResponses.errorAndClose(request, 401, "Ops Key missing");
            return;
        }
        request.pause();
        lookup(context, bearer(context, authorization), principal -> {
            if (principal.isEmpty()) {
                EdgeResponses.errorAndClose(request, 401, "Invalid token");
                return;
            }
            opsAuthenticated(context, path, upstream, requestId, principal.get(), true);
        });
    }

    /**
     * The principal an {@code Authorization} header's bearer value names, if any: one indexed read for
     * a session or a pharmacy key; for anything else, quarkus-oidc's verification (the provider's keys
     * are cached; no call to the provider per token) and then the account's read, or its provisioning.
     */
    private Future<Optional<Principal>> bearer(RoutingContext context, String authorization) {
        Optional<String> token = BearerTokens.token(authorization);
        if (token.isEmpty()) {
            return Future.succeededFuture(Optional.empty());
        }
        return switch (BearerTokens.kind(token.get())) {
            case SESSION -> localAccounts.enabled()
                    ? credentials.personForSession(token.get())
                    : Future.succeededFuture(Optional.empty());
            case PHARMACY_KEY -> credentials.pharmacyForKey(token.get());
            case OTHER -> oidcTokens.verify(context, token.get()).compose(person -> person.isEmpty()
                    ? Future.succeededFuture(Optional.empty())
                    : credentials.personForToken(person.get()));
        };
    }

    /**
     * Goes on with an authenticated operator call ({@code principal} null only for the sign-in;
     * {@code paused} when the request was paused for a credential lookup): to
     * the gateway's own endpoints, which read the principal from the {@code X-Principal} header set
     * here (and from the routing context under the same key), or forwarded with it.
     */
    private void opsAuthenticated(RoutingContext context, String path, Upstream upstream, String requestId,
                                  Principal principal, boolean paused) {
        HttpServerRequest request = context.request();
        Optional<String> partnerId = Routes.forwardedPartnerSetting(path);
        if (partnerId.isPresent() && PartnerSettingAccess.allowed(request.method().name(), path, principal, production)) {
            knownPartnerSetting(context, path, upstream, requestId, principal, partnerId.get());
            return;
        }
        opsOnwards(context, path, upstream, requestId, principal, paused);
    }

    /**
     * A partner setting another service owns ({@code /ops/v1/partners/:id/webhook}, {@code drug-access},
     * {@code fulfilment}, {@code billing}, ...), for a caller the access table lets through: forwarded
     * only when the gateway knows the partner, else {@code 404 {"error":"Partner not found"}} here, the
     * body unread and nothing forwarded, so no service stores a setting of a partner that does not
     * exist (issue 45). The gateway owns partners; no service learns a second way to know them. A caller
     * the table refuses is forwarded without the lookup and gets the service's {@code 403}, as before:
     * credential and access first, then the partner.
     */
    private void knownPartnerSetting(RoutingContext context, String path, Upstream upstream, String requestId,
                                     Principal principal, String partnerId) {
        HttpServerRequest request = context.request();
        request.pause();
        lookup(context, credentials.knowsPartner(partnerId), known -> {
            if (!known) {
                EdgeResponses.errorAndClose(request, 404, "Partner not found");
                return;
            }
            opsOnwards(context, path, upstream, requestId, principal, true);
        });
    }

    private void opsOnwards(RoutingContext context, String path, Upstream upstream, String requestId,
                            Principal principal, boolean paused) {
        HttpServerRequest request = context.request();
        if (upstream == Upstream.GATEWAY) {
            // The gateway's own endpoints read their bodies themselves: the JSON limit holds here too.
            String declaredLength = request.getHeader("Content-Length");
            if (declaredLength == null && request.getHeader("Transfer-Encoding") != null) {
                EdgeResponses.errorAndClose(request, 411, "Length Required");
                return;
            }
            if (declaredLength != null && Proxy.parseLength(declaredLength) > config.jsonBodyLimit()) {
                EdgeResponses.errorAndClose(request, 413, "Payload Too Large");
                return;
            }
            if (principal != null) {
                context.put(Principal.HEADER, principal);
                request.headers().set(Principal.HEADER, principal.header());
            }
            // Paused for a lookup: let the body flow again for the handlers next() installs (as
            // Quarkus's own authentication does); a call authenticated synchronously was never paused.
            if (paused && !request.isEnded()) {
                request.resume();
            }
            context.next();
            return;
        }
        request.pause();
        proxy.forward(request, path, upstream, null, principal, requestId);
    }

    /**
     * A call without a credential (attachment links, the API's description): reads only, anything
     * else {@code 405} before any service is called. Forwarded as an operator call is, without a
     * partner: whatever credential or partner the client sent stays here ({@link Proxy}). The
     * description is the gateway's own ({@code openapi.ApiDocuments}).
     */
    private void publicCall(RoutingContext context, String path, Upstream upstream, String requestId) {
        HttpServerRequest request = context.request();
        if (!PUBLIC_METHODS.contains(request.method().name())) {
            request.response().putHeader("Allow", "GET, HEAD");
            EdgeResponses.errorAndClose(request, 405, "Method Not Allowed");
            return;
        }
        if (upstream == Upstream.GATEWAY) {
            context.next();
            return;
        }
        request.pause();
        proxy.forward(request, path, upstream, null, null, requestId);
    }

    /**
     * A page (web-service): no credential, links and forms only (anything but GET, HEAD and POST
     * {@code 405} before any service is called), forwarded with its path and query as sent. A hosted
     * survey page ({@code /surveys/:surveyId}) whose {@code key} is a valid publishable key goes with
     * that partner, exactly as an {@link #embedCall} does, and its form's submissions count against
     * the same submission limits; with no key, or one that is not a publishable key, it goes without
     * a partner and the page answers for it (its 401 page). No {@code Origin} is checked: the pages
     * are the platform's own origin, never embedded in a partner's.
     */
    private void pageCall(RoutingContext context, String path, Upstream upstream, String requestId) {
        HttpServerRequest request = context.request();
        if (!PAGE_METHODS.contains(request.method().name())) {
            request.response().putHeader("Allow", "GET, HEAD, POST");
            EdgeResponses.errorAndClose(request, 405, "Method Not Allowed");
            return;
        }
        request.pause();
        String key = Routes.isSurveyPage(path) ? request.getParam(PAGE_KEY_PARAMETER) : null;
        if (key == null || key.isBlank()) {
            proxy.forward(request, path, upstream, null, null, requestId);
            return;
        }
        lookup(context, credentials.partnerForPublishableKey(key), partner -> {
            if (partner.isEmpty()) {
                proxy.forward(request, path, upstream, null, null, requestId);
                return;
            }
            String partnerId = partner.get().partnerId();
            context.put(PARTNER_ATTRIBUTE, partnerId);
            MDC.put(RequestIds.PARTNER_MDC_KEY, partnerId);
            if (request.method() == HttpMethod.POST && !withinSubmissionLimits(request, partnerId)) {
                return;
            }
            proxy.forward(request, path, upstream, partnerId, null, requestId);
        });
    }

    /**
     * The gateway's own internal endpoint: served to a call with a fresh service proof of itself
     * (platform-commons {@code trust}, as every service serves {@code /internal/**}), else
     * {@code 401 {"error":"Unauthorized"}} without reading the body. The gateway's other routes
     * check no proof ({@code platform.trust.verify=false}): their callers have credentials of their own.
     */
    private void internalCall(RoutingContext context, ServiceProof.Verdict proof) {
        if (proof != ServiceProof.Verdict.PROVEN) {
            // The access log has its line (401); anyone on the public address may knock, so no more is written.
            EdgeResponses.errorAndClose(context.request(), 401, "Unauthorized");
            return;
        }
        context.next();
    }

    /**
     * Takes one anonymous submission of {@code partnerId}'s visitor ({@link SubmissionLimits}) and
     * writes the limits' headers; false once refused, the call answered {@code 429}.
     */
    private boolean withinSubmissionLimits(HttpServerRequest request, String partnerId) {
        SubmissionLimits.Verdict verdict = submissionLimits.take(partnerId, request.remoteAddress().hostAddress());
        HttpServerResponse response = request.response();
        response.putHeader("RateLimit-Policy", verdict.policy()).putHeader("RateLimit", verdict.state());
        if (!verdict.allowed()) {
            response.putHeader("Retry-After", String.valueOf(verdict.retryAfterSeconds()));
            EdgeResponses.errorAndClose(request, 429, "Too Many Requests");
            return false;
        }
        return true;
    }

    /** Continues with a lookup's answer (on the event loop); a failed lookup answers 500. */
    private <T> void lookup(RoutingContext context, Future<T> query, Consumer<T> then) {
        query.onComplete(result -> {
            if (result.succeeded()) {
                then.accept(result.result());
            } else {
                LOG.errorf("credential lookup failed: %s", result.cause().getClass().getName());
                EdgeResponses.errorAndClose(context.request(), 500, "Internal Server Error");
            }
        });
    }

    private static String requestId(String sent) {
        return sent != null && REQUEST_ID.matcher(sent).matches() ? sent : UUID.randomUUID().toString();
    }
}
