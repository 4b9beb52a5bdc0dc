package com.telemed.gateway.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.telemed.common.access.OpsAccess;
import com.telemed.gateway.edge.Routes;
import com.telemed.gateway.edge.Surface;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Builds the two OpenAPI 3.1 documents from their two kinds of source:
 * <ul>
 * <li>the operations ({@code paths}) as each service's code says them: its resources' MicroProfile
 * OpenAPI annotations, read by SmallRye OpenAPI into {@code openapi/generated/<module>.yaml}
 * (testkit {@code ApiPaths}; each module's {@code ApiDescriptionTest} keeps its file equal to its
 * code). {@code /ops} paths go to the operator document, every other one to the partner document;</li>
 * <li>what the code cannot say, hand-written ({@code openapi/partner.yaml},
 * {@code openapi/operations.yaml}): info, tags, credential schemes, the schemas of the wire
 * records, the named responses and the examples with the contract's exact error strings, and the
 * webhooks.</li>
 * </ul>
 * It then adds what is the same for every operation, so neither source repeats it:
 * <ul>
 * <li>the answers the edge and the platform's error mappers give to any call (401 by the surface's
 * credential, 403 by the role table on {@code /ops} ({@code access.OpsAccess}), 400 malformed,
 * 408/411/415 on operations that take a body, 413, 414, 429, 431, 500, 503, 504), unless the
 * operation documents that status itself;</li>
 * <li>the CORS preflight ({@code OPTIONS}) of every path of the browser-facing surfaces;</li>
 * <li>each webhook, from its shorthand ({@code x-payload}: the body's schema) to a {@code post} with
 * the signature headers;</li>
 * <li>in the operator document, the shared components it uses from the partner document.</li>
 * </ul>
 * Pure: no configuration, no I/O but the class path, so tests build exactly what is served.
 */
public final class OpenApiDocuments {

    public static final String PARTNER_SOURCE = "openapi/partner.yaml";
    public static final String OPERATIONS_SOURCE = "openapi/operations.yaml";
    /** The modules whose operations the documents describe, each with its generated {@code openapi/generated/<module>.yaml}. */
    public static final List<String> MODULES = List.of("gateway", "requests-service", "members-service", "catalogue-service",
            "messaging-service", "billing-service", "webhook-service");
    private static final String OPERATOR_PREFIX = "/ops/";
    private static final Pattern PATH_PARAMETER = Pattern.compile("\\{([^}/]+)}");

    private static final ObjectMapper YAML = new YAMLMapper();
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final ObjectMapper YAML_OUT = new ObjectMapper(YAMLFactory.builder()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .build());
    private static final List<String> METHODS = List.of("get", "put", "post", "delete", "options", "head", "patch", "trace");
    private static final Set<String> BODY_METHODS = Set.of("post", "put", "patch");

    /** The components the operator document shares with the partner document (errors, timestamps). */
    private static final Map<String, List<String>> SHARED = Map.of(
            "schemas", List.of("Error", "ErrorMessage", "Issue", "Timestamp", "NullableTimestamp", "Date", "Success",
                    "Pagination", "Drug", "Sku", "Concentration", "Dose", "History", "PrescriptionRecord",
                    "NullablePrescriptionRecord", "Prescription", "SendOutcome", "CancelOutcome", "Conversation", "Message",
                    "CreatedMessage", "MessageCreatedEnvelope", "SenderRole", "MessageType", "SurveyQuestion",
                    "SurveyDefinition", "SurveyEnvelope", "ItemStatus", "RequestStatus", "CompactItem", "EmbeddedDrug",
                    "EmbeddedMember", "DetailItem", "RequestDetail"),
            "responses", List.of("BadRequest", "ValidationFailed", "RequestTimeout", "LengthRequired", "PayloadTooLarge",
                    "UriTooLong", "UnsupportedMediaType", "TooManyRequests", "HeadersTooLarge", "InternalError",
                    "ServiceUnavailable", "GatewayTimeout", "RequestNotFound", "ConversationNotFound", "SurveyNotFound"),
            "examples", List.of("Issues", "InvalidJson"));

    /** A document, as served: its tree and its two encodings. */
    public record Document(JsonNode tree, byte[] json, byte[] yaml) {
    }

    private OpenApiDocuments() {
    }

    public static Document partner() {
        ObjectNode document = withPaths(read(PARTNER_SOURCE), generatedPaths(false));
        expandWebhooks(document);
        completeOperations(document);
        return encode(document);
    }

    public static Document operations() {
        ObjectNode document = withPaths(read(OPERATIONS_SOURCE), generatedPaths(true));
        ObjectNode partner = read(PARTNER_SOURCE);
        SHARED.forEach((kind, names) -> {
            ObjectNode from = (ObjectNode) partner.path("components").path(kind);
            ObjectNode to = document.with("components").with(kind);
            names.forEach(name -> {
                if (!to.has(name)) {
                    to.set(name, from.get(name));
                }
            });
        });
        completeOperations(document);
        return encode(document);
    }

    /**
     * The generated paths of every module, the operator's ({@code /ops}) or the others, in path
     * order. Two modules may share a path, never an operation.
     */
    static ObjectNode generatedPaths(boolean operator) {
        TreeMap<String, ObjectNode> paths = new TreeMap<>();
        for (String module : MODULES) {
            String source = "openapi/generated/" + module + ".yaml";
            read(source).path("paths").fields().forEachRemaining(entry -> {
                if (entry.getKey().startsWith(OPERATOR_PREFIX) != operator) {
                    return;
                }
                ObjectNode merged = paths.computeIfAbsent(entry.getKey(), path -> JsonNodeFactory.instance.objectNode());
                entry.getValue().fields().forEachRemaining(operation -> {
                    if (merged.has(operation.getKey())) {
                        throw new IllegalStateException(operation.getKey() + " " + entry.getKey() + " is in two modules' " + source);
                    }
                    merged.set(operation.getKey(), operation.getValue());
                });
            });
        }
        ObjectNode ordered = JsonNodeFactory.instance.objectNode();
        paths.forEach(ordered::set);
        return ordered;
    }

    /** The hand-written document with its paths where a reader looks for them: before the components. */
    private static ObjectNode withPaths(ObjectNode handWritten, ObjectNode paths) {
        if (handWritten.has("paths")) {
            throw new IllegalStateException("the hand-written sources have no paths: they are generated from the code");
        }
        ObjectNode document = JsonNodeFactory.instance.objectNode();
        handWritten.fields().forEachRemaining(field -> {
            if (field.getKey().equals("components")) {
                document.set("paths", paths);
            }
            document.set(field.getKey(), field.getValue());
        });
        return document;
    }

    static ObjectNode read(String resource) {
        try (InputStream in = Thread.currentThread().getContextClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing " + resource);
            }
            return (ObjectNode) YAML.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Document encode(ObjectNode document) {
        try {
            return new Document(document, JSON.writeValueAsBytes(document), YAML_OUT.writeValueAsBytes(document));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code event: {x-payload, x-description}} to the {@code post} a receiver gets. */
    private static void expandWebhooks(ObjectNode document) {
        ObjectNode webhooks = (ObjectNode) document.get("webhooks");
        List<String> events = new ArrayList<>();
        webhooks.fieldNames().forEachRemaining(events::add);
        for (String event : events) {
            JsonNode shorthand = webhooks.get(event);
            ObjectNode post = JsonNodeFactory.instance.objectNode();
            post.put("operationId", "webhook_" + event.replace('.', '_'));
            post.putArray("tags").add("Webhooks");
            post.put("summary", event);
            post.put("description", shorthand.path("x-description").asText() + "\n\n" + SIGNATURE);
            ArrayNode parameters = post.putArray("parameters");
            parameters.add(header("X-Webhook-Timestamp", "Unix time in seconds when signed, as a decimal string. Retries reuse it.",
                    "^[0-9]+$"));
            parameters.add(header("X-Webhook-Signature", "`sha256=` followed by the hex HMAC-SHA256 of `<X-Webhook-Timestamp>.<raw body>`"
                    + " keyed with the webhook secret (as UTF-8).", "^sha256=[0-9a-f]{64}$"));
            ObjectNode id = header("X-Webhook-Id", WEBHOOK_ID, null);
            ((ObjectNode) id.get("schema")).put("format", "uuid");
            parameters.add(id);
            ObjectNode userAgent = header("User-Agent", "Always `Service-Webhook/1.0`.", null);
            ((ObjectNode) userAgent.get("schema")).put("const", "Service-Webhook/1.0");
            parameters.add(userAgent);
            ObjectNode body = post.putObject("requestBody");
            body.put("required", true);
            body.put("description", "`" + event + "`; the body always has `event` and `timestamp`.");
            ObjectNode schema = body.putObject("content").putObject("application/json").putObject("schema");
            schema.put("$ref", "#/components/schemas/" + shorthand.path("x-payload").asText());
            ObjectNode responses = post.putObject("responses");
            responses.putObject("2XX").put("description", "Accepted (any 2xx; the body is ignored).");
            responses.putObject("default").put("description",
                    "A failure: up to 3 attempts per event, waiting 2 s then 4 s, then the event is discarded.");
            webhooks.set(event, JsonNodeFactory.instance.objectNode().set("post", post));
        }
    }

    /** decisions.md, Webhooks: the deduplication key. */
    static final String WEBHOOK_ID = "The deduplication key: one id per event, the same on every attempt and on every"
            + " redelivery of that event (a new event, a new id). Remember the ids you have processed and answer 2xx to a"
            + " repeat without processing it again. Covered by no signature: use it only after the signature verifies.";

    static final String SIGNATURE = """
            Signature: HMAC-SHA256 over the string `<timestamp>.<raw body>`, where `<timestamp>` is the exact \
            `X-Webhook-Timestamp` header value and the body is the exact raw bytes; the key is the webhook secret \
            (64 hexadecimal characters) as a UTF-8 string; hex-encoded and prefixed with `sha256=` in \
            `X-Webhook-Signature`. Verify before parsing: compute, compare in constant time, and reject timestamps \
            more than five minutes from your clock. Duplicates are possible (a retry repeats body, timestamp and \
            signature; a redelivery repeats the body with a fresh timestamp): deduplicate on `X-Webhook-Id`, the same \
            for every delivery of one event. Ordering is not guaranteed; unknown events must be ignored.""";

    private static ObjectNode header(String name, String description, String pattern) {
        ObjectNode header = JsonNodeFactory.instance.objectNode()
                .put("name", name).put("in", "header").put("required", true).put("description", description);
        ObjectNode schema = header.putObject("schema").put("type", "string");
        if (pattern != null) {
            schema.put("pattern", pattern);
        }
        return header;
    }

    /** Adds the answers every call can get, and the preflights of browser-facing paths. */
    private static void completeOperations(ObjectNode document) {
        ObjectNode paths = (ObjectNode) document.get("paths");
        for (Iterator<Map.Entry<String, JsonNode>> it = paths.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> entry = it.next();
            String template = entry.getKey();
            ObjectNode path = (ObjectNode) entry.getValue();
            Surface surface = Routes.resolve(sample(template))
                    .orElseThrow(() -> new IllegalStateException("not routed: " + template)).surface();
            if ((surface == Surface.PARTNER || surface == Surface.EMBED) && !path.has("options")) {
                path.set("options", preflight(surface));
            }
            if (surface == Surface.PUBLIC && !path.has("options")) {
                ObjectNode options = path.putObject("options");
                options.put("operationId", "options" + operationSuffix(template)).putArray("security");
                options.put("summary", "Not allowed (GET and HEAD only)");
                options.putObject("responses").set("405", ref("responses", "MethodNotAllowed"));
            }
            if (path.has("options") && !path.path("options").has("parameters")) {
                withPathParameters(template, (ObjectNode) path.get("options"));
            }
            for (String method : METHODS) {
                if (path.has(method) && !method.equals("options")) {
                    complete(method, template, (ObjectNode) path.get(method), surface);
                }
            }
        }
    }

    private static void complete(String method, String template, ObjectNode operation, Surface surface) {
        ObjectNode responses = operation.with("responses");
        // Any call may carry a body (the edge reads it on every method); a resource that takes one
        // refuses another media type with 415 (the platform's error mappers).
        boolean body = operation.has("requestBody") || BODY_METHODS.contains(method);
        switch (surface) {
            case PARTNER -> putIfAbsent(responses, "401", "Unauthorized");
            case EMBED -> putIfAbsent(responses, "401", "EmbedUnauthorized");
            case OPS -> {
                putIfAbsent(responses, "401", "OpsUnauthorized");
                // Every /ops operation but the sign-in checks the caller's role (access.OpsAccess).
                if (!OpsAccess.rule(method, template).map(OpsAccess.Rule::open).orElse(false)) {
                    putIfAbsent(responses, "403", "OpsForbidden");
                }
                if (Routes.forwardedPartnerSetting(sample(template)).isPresent()) {
                    partnerNotFound(responses);
                }
            }
            case PUBLIC -> { }
        }
        putIfAbsent(responses, "400", "BadRequest");
        if (body) {
            putIfAbsent(responses, "408", "RequestTimeout");
            putIfAbsent(responses, "411", "LengthRequired");
        }
        putIfAbsent(responses, "413", "PayloadTooLarge");
        putIfAbsent(responses, "414", "UriTooLong");
        if (body) {
            putIfAbsent(responses, "415", "UnsupportedMediaType");
        }
        putIfAbsent(responses, "429", "TooManyRequests");
        putIfAbsent(responses, "431", "HeadersTooLarge");
        putIfAbsent(responses, "500", "InternalError");
        putIfAbsent(responses, "503", "ServiceUnavailable");
        putIfAbsent(responses, "504", "GatewayTimeout");
        // Statuses in order, as a reader expects them.
        TreeMap<String, JsonNode> sorted = new TreeMap<>();
        responses.fields().forEachRemaining(response -> sorted.put(response.getKey(), response.getValue()));
        responses.removeAll();
        sorted.forEach(responses::set);
    }

    /**
     * A partner setting another service owns answers {@code 404 Partner not found} at the edge for a
     * partner the gateway does not know ({@code edge.Edge}, issue 45): the operation's own 404, if it has
     * one, gets the example too.
     */
    private static void partnerNotFound(ObjectNode responses) {
        JsonNode own = responses.get("404");
        if (own == null) {
            responses.set("404", ref("responses", "PartnerNotFound"));
            return;
        }
        if (own.has("$ref")) {
            if (!own.path("$ref").asText().equals("#/components/responses/NotFound")) {
                throw new IllegalStateException("a partner setting's 404 must be NotFound or its own: " + own);
            }
            return; // NotFound lists "Partner not found" among its examples
        }
        ObjectNode response = (ObjectNode) own;
        response.put("description", response.path("description").asText() + "; or the partner is unknown (`Partner not found`)");
        response.with("content").fields().forEachRemaining(media -> ((ObjectNode) media.getValue()).with("examples")
                .set("partnerNotFound", ref("examples", "PartnerNotFound")));
    }

    /** The edge's own operations on a path (its preflight) declare the path's parameters, as each generated operation does. */
    private static void withPathParameters(String template, ObjectNode operation) {
        Matcher names = PATH_PARAMETER.matcher(template);
        ArrayNode parameters = JsonNodeFactory.instance.arrayNode();
        while (names.find()) {
            ObjectNode parameter = parameters.addObject().put("name", names.group(1)).put("in", "path").put("required", true);
            parameter.putObject("schema").put("type", "string");
        }
        if (!parameters.isEmpty()) {
            operation.set("parameters", parameters);
        }
    }

    private static ObjectNode preflight(Surface surface) {
        ObjectNode options = JsonNodeFactory.instance.objectNode();
        options.putArray("tags").add(surface == Surface.EMBED ? "Embed" : "CORS");
        options.put("summary", "CORS preflight");
        options.putArray("security");
        ObjectNode responses = options.putObject("responses");
        ObjectNode allowed = responses.putObject("204");
        allowed.put("description", surface == Surface.EMBED
                ? "The Origin is allowed for some partner: the allowed methods and headers"
                : "Any origin (the API is for servers; a browser call would expose the key)");
        ObjectNode headers = allowed.putObject("headers");
        for (String name : List.of("Access-Control-Allow-Methods", "Access-Control-Allow-Headers", "Access-Control-Max-Age")) {
            headers.putObject(name).putObject("schema").put("type", "string");
        }
        if (surface == Surface.EMBED) {
            responses.set("403", ref("responses", "OriginNotAllowed"));
        }
        return options;
    }

    private static void putIfAbsent(ObjectNode responses, String status, String component) {
        if (!responses.has(status)) {
            responses.set(status, ref("responses", component));
        }
    }

    private static ObjectNode ref(String kind, String name) {
        return JsonNodeFactory.instance.objectNode().put("$ref", "#/components/" + kind + "/" + name);
    }

    /** A concrete path of a template: each {@code {name}} becomes {@code name}. */
    public static String sample(String template) {
        return template.replaceAll("\\{([^}/]+)}", "$1");
    }

    private static String operationSuffix(String template) {
        StringBuilder suffix = new StringBuilder();
        for (String part : sample(template).split("[^A-Za-z0-9]+")) {
            if (!part.isEmpty()) {
                suffix.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
            }
        }
        return suffix.toString();
    }
}
