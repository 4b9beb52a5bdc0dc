package com.telemed.gateway.edge;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The routing table of the architecture: a path prefix names the surface (and so the credential)
 * and the owning service; attachment links are routed by their exact shape
 * ({@code /attachments/:token/:fileName}, nothing shorter or longer). The platform's pages
 * ({@code /book}, {@code /surveys}, {@code /assets}, {@code /console}) go to web-service. Anything
 * else, {@code /internal/**} included, is not routed, but for the gateway's own internal endpoint
 * ({@code /internal/partners/:partnerId/embed-origins}, service proof required).
 */
public final class Routes {

    public record Route(Surface surface, Upstream upstream) {
    }

    private record Prefix(String prefix, Route route) {
        boolean matches(String path) {
            return path.equals(prefix) || path.startsWith(prefix + "/");
        }
    }

    private record PartnerSetting(Pattern path, Upstream upstream) {
    }

    private static final String ACCOUNTS = "/ops/v1/accounts";
    private static final String SESSIONS = "/ops/v1/sessions";
    private static final String CURRENT_SESSION = SESSIONS + "/current";

    private static final List<Prefix> PREFIXES = List.of(
            partner("/v1/drugs", Upstream.CATALOGUE),
            partner("/v1/members", Upstream.MEMBERS),
            partner("/v1/requests", Upstream.REQUESTS),
            partner("/v1/surveys", Upstream.REQUESTS),
            // Sandbox simulation (partner-extensions.md): requests-service answers 404 outside sandbox.
            partner("/v1/sandbox", Upstream.REQUESTS),
            partner("/v1/messages", Upstream.MESSAGING),
            partner("/v1/billing", Upstream.BILLING),
            // The partner's own webhook URL and secret (partner-extensions.md, Webhook settings, self-service).
            partner("/v1/webhook", Upstream.WEBHOOK),

            // Events from a cursor and the test webhook (partner-extensions.md, Events; issue #42).
            partner("/v1/events", Upstream.WEBHOOK),
            partner("/v1/webhooks", Upstream.WEBHOOK),
            partner("/v2/public", Upstream.REQUESTS),
            new Prefix("/v2/embed", new Route(Surface.EMBED, Upstream.REQUESTS)),
            ops("/ops/v1/drugs", Upstream.CATALOGUE),
            ops("/ops/v1/prescribers", Upstream.REQUESTS),
            ops("/ops/v1/review", Upstream.REQUESTS),
            ops("/ops/v1/requests", Upstream.REQUESTS),
            ops("/ops/v1/bookings", Upstream.REQUESTS),
            ops("/ops/v1/appointments", Upstream.REQUESTS),
            ops("/ops/v1/pharmacy", Upstream.REQUESTS),
            ops("/ops/v1/surveys", Upstream.REQUESTS),
            ops("/ops/v1/conversations", Upstream.MESSAGING),
            // Maintenance of the webhook secrets' encryption (webhook-service README, Secrets).
            ops("/ops/v1/webhook-secrets", Upstream.WEBHOOK),
            // People and pharmacies on /ops (issue #40): the gateway's own identity endpoints.
            ops(ACCOUNTS, Upstream.GATEWAY),
            ops(SESSIONS, Upstream.GATEWAY),
            ops("/ops/v1/pharmacies", Upstream.GATEWAY),
            // The audit trail (issue #40): the gateway merges every auditing service's entries.
            ops("/ops/v1/audit", Upstream.GATEWAY),
            // The platform's pages on the public address (people-and-pages.md): booking links, hosted
            // surveys, their assets, and the console (to come), all web-service's.
            page("/book"),
            page("/surveys"),
            page("/assets"),
            page("/console"));

    /** Partner settings each live with the service that owns them; the rest of a partner is the gateway's. */
    private static final List<PartnerSetting> PARTNER_SETTINGS = List.of(
            setting("webhook(/.*)?", Upstream.WEBHOOK),
            setting("drug-access", Upstream.CATALOGUE),
            setting("fulfilment", Upstream.REQUESTS),
            setting("billing(/rebuild)?", Upstream.BILLING),
            setting("(api-key/rotate|embed-origins)?", Upstream.GATEWAY));

    private static final String PARTNERS = "/ops/v1/partners";

    /**
     * An attachment link (partner-api.md: not authenticated, the URL contains the original file
     * name): one token segment and one file-name segment, served by messaging-service at the same path.
     */
    private static final Pattern ATTACHMENT_LINK = Pattern.compile("/attachments/[^/]+/[^/]+");

    /**
     * The API's own description (issue 22), answered by the gateway: the partner document and its
     * reference page without a credential (reads only, like attachment links), the operator
     * document with the operator key.
     */
    private static final Map<String, Route> DOCUMENTS = Map.of(
            "/openapi.json", new Route(Surface.PUBLIC, Upstream.GATEWAY),
            "/openapi.yaml", new Route(Surface.PUBLIC, Upstream.GATEWAY),
            "/ops/openapi.json", new Route(Surface.OPS, Upstream.GATEWAY),
            "/ops/openapi.yaml", new Route(Surface.OPS, Upstream.GATEWAY));

    /** The reference page and its assets: {@code /docs} and one file name below it. */
    private static final Pattern REFERENCE_PAGE = Pattern.compile("/docs(/[A-Za-z0-9._-]*)?");

    /**
     * A hosted survey page for a new patient, {@code /surveys/:surveyId} (one segment; a returning
     * member's is {@code /surveys/t/:token}): its {@code key} query parameter names the partner.
     */
    private static final Pattern SURVEY_PAGE = Pattern.compile("/surveys/[^/]+");

    /** The gateway's one internal endpoint: a partner's embed allow-list, for web-service's {@code return=} check. */
    private static final Pattern INTERNAL_EMBED_ORIGINS = Pattern.compile("/internal/partners/[^/]+/embed-origins");
    private static final String INTERNAL_EMBED_ORIGINS_TEMPLATE = "/internal/partners/{partnerId}/embed-origins";

    /** An attachment link as a path template (the OpenAPI documents name it so). */
    public static final String ATTACHMENT_LINK_TEMPLATE = "/attachments/{token}/{fileName}";

    /** The only routes that take a multipart body, and with it the upload limit (an attachment of 10 MB). */
    private static final List<Pattern> UPLOADS = List.of(
            Pattern.compile("/v1/messages/conversations/[^/]+/attachments"),
            Pattern.compile("/ops/v1/conversations/[^/]+/prescriber-attachments"),
            // The console's attachment form (web-service), which posts on to the route above.
            Pattern.compile("/console/conversations/[^/]+/attach"));

    private Routes() {
    }

    public static Optional<Route> resolve(String path) {
        Route document = DOCUMENTS.get(path);
        if (document != null) {
            return Optional.of(document);
        }
        if (REFERENCE_PAGE.matcher(path).matches()) {
            return Optional.of(new Route(Surface.PUBLIC, Upstream.GATEWAY));
        }
        if (ATTACHMENT_LINK.matcher(path).matches()) {
            return Optional.of(new Route(Surface.PUBLIC, Upstream.MESSAGING));
        }
        if (INTERNAL_EMBED_ORIGINS.matcher(path).matches()) {
            return Optional.of(new Route(Surface.INTERNAL, Upstream.GATEWAY));
        }
        if (path.equals(PARTNERS)) {
            return Optional.of(new Route(Surface.OPS, Upstream.GATEWAY));
        }
        if (path.startsWith(PARTNERS + "/")) {
            String rest = path.substring(PARTNERS.length() + 1);
            int slash = rest.indexOf('/');
            String setting = slash < 0 ? "" : rest.substring(slash + 1);
            return PARTNER_SETTINGS.stream()
                    .filter(candidate -> candidate.path().matcher(setting).matches())
                    .findFirst()
                    .map(candidate -> new Route(Surface.OPS, candidate.upstream()));
        }
        return PREFIXES.stream().filter(prefix -> prefix.matches(path)).findFirst().map(Prefix::route);
    }

    /** The prefix entries of the table in order, prefix to route (for the OpenAPI documents' tests). */
    public static Map<String, Route> prefixes() {
        Map<String, Route> prefixes = new LinkedHashMap<>();
        PREFIXES.forEach(prefix -> prefixes.put(prefix.prefix(), prefix.route()));
        return prefixes;
    }

    /**
     * The partner settings under {@code /ops/v1/partners/:id/}, as the pattern of the rest of the
     * path to the owning service, plus {@code /ops/v1/partners} itself (for the documents' tests).
     */
    public static Map<String, Upstream> partnerSettings() {
        Map<String, Upstream> settings = new LinkedHashMap<>();
        settings.put(PARTNERS, Upstream.GATEWAY);
        PARTNER_SETTINGS.forEach(setting -> settings.put(setting.path().pattern(), setting.upstream()));
        return settings;
    }

    /**
     * The partner id in the path of a partner setting another service owns
     * ({@code /ops/v1/partners/:id/webhook/**}, {@code drug-access}, {@code fulfilment},
     * {@code billing/**}): the edge answers {@code 404 Partner not found} for a partner the gateway does
     * not know before forwarding ({@link Edge}). Empty for any other path, and for the gateway's own
     * partner routes ({@code /ops/v1/partners/:id}, {@code api-key/rotate}, {@code embed-origins}),
     * which look the partner up themselves.
     */
    public static Optional<String> forwardedPartnerSetting(String path) {
        if (!path.startsWith(PARTNERS + "/")) {
            return Optional.empty();
        }
        String rest = path.substring(PARTNERS.length() + 1);
        int slash = rest.indexOf('/');
        if (slash <= 0 || resolve(path).map(route -> route.upstream() == Upstream.GATEWAY).orElse(true)) {
            return Optional.empty();
        }
        return Optional.of(rest.substring(0, slash));
    }

    /**
     * The metrics name of a routed path ({@link UriTemplates}): the routing-table entry it matched,
     * never the path itself, which carries ids and tokens: {@code /v1/requests} or
     * {@code /v1/requests/**}, {@code /attachments/{token}/{fileName}},
     * {@code /ops/v1/partners/{partnerId}/billing/rebuild}; the API documents by their own path, the
     * reference page's assets as {@code /docs/**}. Empty for a path that is not routed.
     */
    public static Optional<String> template(String path) {
        if (DOCUMENTS.containsKey(path)) {
            return Optional.of(path);
        }
        if (REFERENCE_PAGE.matcher(path).matches()) {
            return Optional.of(path.equals("/docs") ? path : "/docs/**");
        }
        if (ATTACHMENT_LINK.matcher(path).matches()) {
            return Optional.of("/attachments/{token}/{fileName}");
        }
        if (INTERNAL_EMBED_ORIGINS.matcher(path).matches()) {
            return Optional.of(INTERNAL_EMBED_ORIGINS_TEMPLATE);
        }
        if (path.equals(PARTNERS)) {
            return Optional.of(PARTNERS);
        }
        if (path.startsWith(PARTNERS + "/")) {
            if (resolve(path).isEmpty()) {
                return Optional.empty();
            }
            String rest = path.substring(PARTNERS.length() + 1);
            int slash = rest.indexOf('/');
            // A routed setting is one of the fixed names above; only webhook/... goes deeper.
            String setting = slash < 0 ? "" : rest.substring(slash);
            return Optional.of(PARTNERS + "/{partnerId}" + (setting.startsWith("/webhook/") ? "/webhook/**" : setting));
        }
        return PREFIXES.stream().filter(prefix -> prefix.matches(path)).findFirst()
                .map(prefix -> path.equals(prefix.prefix()) ? prefix.prefix() : prefix.prefix() + "/**");
    }

    /**
     * Whether {@code method path} is the sign-in of a local account, {@code POST /ops/v1/sessions}: the
     * one {@code /ops} call that takes no credential (people-and-pages.md, "Credentials on /ops").
     */
    public static boolean isSignIn(String method, String path) {
        return method.equals("POST") && path.equals(SESSIONS);
    }

    /**
     * Whether {@code method path} is a route of local accounts ({@code /ops/v1/accounts/**},
     * {@code /ops/v1/sessions/**}), but for {@code GET /ops/v1/sessions/current}: who is signed in is
     * an OpenID Connect person's question too.
     */
    public static boolean isLocalAccountRoute(String method, String path) {
        if ((method.equals("GET") || method.equals("HEAD")) && path.equals(CURRENT_SESSION)) {
            return false;
        }
        return Stream.of(ACCOUNTS, SESSIONS).anyMatch(prefix -> path.equals(prefix) || path.startsWith(prefix + "/"));
    }

    /** Whether {@code path} is a hosted survey page for a new patient, whose {@code key} names its partner. */
    public static boolean isSurveyPage(String path) {
        return SURVEY_PAGE.matcher(path).matches();
    }

    /** Whether {@code path} is an attachment link, a public download ({@link DownloadPace}). */
    public static boolean isAttachmentLink(String path) {
        return ATTACHMENT_LINK.matcher(path).matches();
    }

    /** Whether {@code method path} uploads a file: the body limit is chosen by this, never by the client's Content-Type. */
    public static boolean takesUpload(String method, String path) {
        return method.equals("POST") && UPLOADS.stream().anyMatch(upload -> upload.matcher(path).matches());
    }

    private static Prefix partner(String prefix, Upstream upstream) {
        return new Prefix(prefix, new Route(Surface.PARTNER, upstream));
    }

    private static Prefix ops(String prefix, Upstream upstream) {
        return new Prefix(prefix, new Route(Surface.OPS, upstream));
    }

    private static Prefix page(String prefix) {
        return new Prefix(prefix, new Route(Surface.PAGE, Upstream.WEB));
    }

    private static PartnerSetting setting(String regex, Upstream upstream) {
        return new PartnerSetting(Pattern.compile(regex), upstream);
    }
}
