package com.telemed.testkit.contract;

import com.telemed.testkit.http.Exchange;
import com.telemed.testkit.http.Exchanges;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Holds every answer a test gets from a registered gateway to the gateway's own OpenAPI documents:
 * {@code /ops/...} to the operator document ({@code GET /ops/openapi.json}, with the operator key),
 * {@code /v1/...}, {@code /v2/...} and {@code /attachments/...} to the partner document
 * ({@code GET /openapi.json}); the documents themselves, the reference pages, {@code /q/...} and
 * paths the gateway does not route are not checked. Answers from any other address (a service
 * called directly, a gateway replica, a test's own fake) are not partner contract and pass unchecked.
 * Answers to HEAD and OPTIONS (CORS preflights) are the HTTP layer's, not the document's.
 * {@code RawHttp} answers are checked only when successful (2xx): its
 * requests are malformed on purpose, and what the platform refuses them with is the bad-input
 * oracle's to judge, not the document's; what it accepts, it must answer as documented.
 *
 * <p>A drift throws an {@link AssertionError} naming the call, its status and the violations, in the
 * thread that made the call. {@code -Dcontract.check=off} switches the check off for a run.
 */
public final class ContractCheck implements Exchanges.Listener {

    public static final String SWITCH = "contract.check";
    public static final String PARTNER_DOCUMENT = "/openapi.json";
    public static final String OPERATOR_DOCUMENT = "/ops/openapi.json";

    private static final ContractCheck INSTANCE = new ContractCheck();

    /** A gateway's two documents, or why it has none (said once, by the first call that meets it). */
    private record Gateway(OpenApiContract partner, OpenApiContract operator, String missing, AtomicBoolean told) {
    }

    private final Map<URI, Gateway> gateways = new ConcurrentHashMap<>();

    private ContractCheck() {
    }

    public static ContractCheck instance() {
        return INSTANCE;
    }

    /** Whether the check is on for this run (it is, unless {@code -Dcontract.check=off}). */
    public static boolean enabled() {
        return !"off".equalsIgnoreCase(System.getProperty(SWITCH, "on").trim());
    }

    /**
     * Fetches the gateway's two documents once and starts holding its answers to them. A gateway
     * that serves none (or one that does not read as OpenAPI 3.1) is remembered as such: the first
     * call to it then fails with the reason, once.
     */
    public void register(URI gateway, String opsKey) {
        if (!enabled()) {
            return;
        }
        Exchanges.listen(this);
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
        Fetched partner = fetch(http, gateway, PARTNER_DOCUMENT, Map.of());
        Fetched operator = fetch(http, gateway, OPERATOR_DOCUMENT, Map.of("x-ops-key", opsKey));
        String missing = partner.problem().or(operator::problem).orElse(null);
        gateways.put(Exchange.originOf(gateway), new Gateway(partner.contract(), operator.contract(), missing, new AtomicBoolean()));
    }

    /** Holds the gateway's answers to the given documents (tests of the check itself). */
    public void register(URI gateway, OpenApiContract partner, OpenApiContract operator) {
        Exchanges.listen(this);
        gateways.put(Exchange.originOf(gateway), new Gateway(partner, operator, null, new AtomicBoolean()));
    }

    /** Stops checking the gateway's answers (it stopped). */
    public void unregister(URI gateway) {
        gateways.remove(Exchange.originOf(gateway));
    }

    /**
     * The violations of a webhook body against the partner document of a registered gateway (every
     * gateway of a test JVM runs the same build, and so serves the same document); none while no
     * gateway with a document is registered or the check is off.
     */
    public List<String> webhookViolations(byte[] body) {
        if (!enabled()) {
            return List.of();
        }
        return gateways.values().stream().filter(gateway -> gateway.partner() != null).findFirst()
                .map(gateway -> gateway.partner().checkWebhook(body)).orElse(List.of());
    }

    @Override
    public void answered(Exchange exchange) {
        if (!enabled()) {
            return;
        }
        Gateway gateway = gateways.get(exchange.origin());
        String path = exchange.path();
        if (gateway == null || !contractPath(path)) {
            return;
        }
        // CORS preflights (OPTIONS) and HEAD are the HTTP layer's, not operations of the document.
        // RawHttp sends malformed requests on purpose (the bad-input property: matrix parameters, odd
        // segments), which the HTTP layer may resolve to another resource: fuzz.Oracle judges those.
        if (exchange.method().equalsIgnoreCase("HEAD") || exchange.method().equalsIgnoreCase("OPTIONS")
                || exchange.client() == Exchange.Client.RAW_HTTP) {
            return;
        }
        if (gateway.missing() != null) {
            if (gateway.told().compareAndSet(false, true)) {
                throw new AssertionError("Contract check: the gateway at " + exchange.origin() + " " + gateway.missing()
                        + ". Every answer of the end-to-end tests is held to its OpenAPI documents;"
                        + " run with -D" + SWITCH + "=off to switch the check off.");
            }
            return;
        }
        boolean operator = under(path, "/ops");
        OpenApiContract contract = operator ? gateway.operator() : gateway.partner();
        List<String> violations = contract.check(exchange.method(), exchange.target(), exchange.status(), exchange.contentType(),
                exchange.responseBody());
        if (!violations.isEmpty()) {
            throw new AssertionError(drift(exchange, operator ? "operator document " + OPERATOR_DOCUMENT
                    : "partner document " + PARTNER_DOCUMENT, violations));
        }
    }

    /** The failure's text: the call, its status, the document, then one violation a line. */
    static String drift(Exchange exchange, String document, List<String> violations) {
        StringBuilder text = new StringBuilder("Contract drift: ").append(exchange.method()).append(' ').append(exchange.target())
                .append(" answered ").append(exchange.status()).append(", against the ").append(document).append(':');
        violations.forEach(violation -> text.append("\n  - ").append(violation));
        return text.toString();
    }

    /**
     * The partner surfaces ({@code /v1}, {@code /v2}, {@code /attachments}) and the operator one
     * ({@code /ops}); not the documents and their reference pages ({@code /openapi*}, {@code /ops/openapi*},
     * {@code /docs}, {@code /swagger*}), Quarkus's {@code /q/...}, nor any other path (the gateway routes
     * none: what it answers there is the edge's refusal).
     */
    static boolean contractPath(String path) {
        String lower = path.toLowerCase(Locale.ROOT);
        for (String prefix : List.of("/openapi", "/ops/openapi", "/docs", "/ops/docs", "/swagger", "/ops/swagger")) {
            if (lower.startsWith(prefix)) {
                return false;
            }
        }
        return under(path, "/v1") || under(path, "/v2") || under(path, "/attachments") || under(path, "/ops");
    }

    private static boolean under(String path, String prefix) {
        return path.equals(prefix) || path.startsWith(prefix + "/");
    }

    private record Fetched(OpenApiContract contract, Optional<String> problem) {
    }

    private static Fetched fetch(HttpClient http, URI gateway, String path, Map<String, String> headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(gateway.resolve(path)).timeout(Duration.ofSeconds(30))
                .header("Accept", "application/json");
        headers.forEach(request::header);
        try {
            HttpResponse<String> answer = http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            if (answer.statusCode() != 200) {
                return new Fetched(null, Optional.of("serves no OpenAPI document at " + path + " (" + answer.statusCode() + ")"));
            }
            try {
                return new Fetched(OpenApiContract.parse(answer.body()), Optional.empty());
            } catch (IllegalArgumentException | IllegalStateException unreadable) {
                return new Fetched(null, Optional.of("serves at " + path + " a document that does not read as OpenAPI 3.1 ("
                        + unreadable.getMessage() + ")"));
            }
        } catch (IOException e) {
            return new Fetched(null, Optional.of("did not answer GET " + path + " (" + e + ")"));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Fetched(null, Optional.of("did not answer GET " + path + " (interrupted)"));
        }
    }
}
