package com.telemed.testkit.contract;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.InputFormat;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.PathType;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaValidatorsConfig;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import com.networknt.schema.oas.OpenApi31;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.parameters.RequestBody;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * An OpenAPI 3.1 document as a contract to hold answers and webhook bodies to. swagger-parser reads
 * the document (its paths, operations, responses, media types, webhooks); the networknt validator
 * checks a body against the schema at a JSON pointer into the document, loaded whole as a schema
 * resource so that its {@code $ref}s to {@code #/components/...} resolve in it (OpenAPI 3.1 schema
 * dialect, JSON Schema 2020-12; {@code format} is an annotation there, not asserted).
 *
 * <p>Every check returns the violations as sentences, empty when the answer agrees with the document.
 * An undocumented path or method answered 404 or 405 agrees with it: the platform refuses what the
 * document does not offer.
 */
public final class OpenApiContract {

    /** Where the document is registered as a schema resource (never fetched: the loader serves it). */
    private static final String DOCUMENT_IRI = "https://contract.telemed.invalid/openapi.json";

    private static final ObjectMapper JSON = new ObjectMapper();

    private final OpenAPI model;
    private final JsonSchemaFactory schemas;
    private final SchemaValidatorsConfig config = SchemaValidatorsConfig.builder().pathType(PathType.JSON_POINTER).build();
    private final List<Template> templates;
    private final Map<String, JsonSchema> byPointer = new ConcurrentHashMap<>();

    private OpenApiContract(OpenAPI model, String json) {
        this.model = model;
        this.schemas = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012, builder -> builder
                .metaSchema(OpenApi31.getInstance())
                .defaultMetaSchemaIri(OpenApi31.getInstance().getIri())
                .schemaLoaders(loaders -> loaders.schemas(Map.of(DOCUMENT_IRI, json))));
        this.templates = model.getPaths() == null ? List.of()
                : model.getPaths().keySet().stream().map(Template::of).toList();
    }

    /** Reads a document; throws {@link IllegalArgumentException} when it is not OpenAPI 3.1 or does not parse. */
    public static OpenApiContract parse(String json) {
        ParseOptions options = new ParseOptions();
        options.setResolve(false);
        SwaggerParseResult result = new OpenAPIV3Parser().readContents(json, null, options);
        OpenAPI model = result.getOpenAPI();
        if (model == null) {
            throw new IllegalArgumentException("not an OpenAPI document: " + result.getMessages());
        }
        if (model.getOpenapi() == null || !model.getOpenapi().startsWith("3.1")) {
            throw new IllegalArgumentException("not OpenAPI 3.1: openapi " + model.getOpenapi());
        }
        return new OpenApiContract(model, json);
    }

    /**
     * The violations of one answer: {@code rawPath} as sent (a query is ignored), {@code contentType}
     * as answered (null: none), {@code body} the answer's bytes (empty: none).
     */
    public List<String> check(String method, String rawPath, int status, String contentType, byte[] body) {
        String path = withoutQuery(rawPath);
        String verb = method.toUpperCase(Locale.ROOT);
        Optional<Template> matched = match(path);
        if (matched.isEmpty()) {
            return refusal(status) ? List.of() : List.of("no documented path matches " + path);
        }
        String template = matched.get().text();
        PathItem item = pathItem(model.getPaths().get(template));
        Map<PathItem.HttpMethod, Operation> operations = item == null ? Map.of() : item.readOperationsMap();
        Operation operation = operations.entrySet().stream().filter(entry -> entry.getKey().name().equals(verb))
                .map(Map.Entry::getValue).findFirst().orElse(null);
        if (operation == null) {
            return refusal(status) ? List.of() : List.of(verb + " " + template + ": method not documented (documented: "
                    + operations.keySet().stream().map(Enum::name).collect(Collectors.joining(", ")) + ")");
        }
        String where = verb + " " + template + " " + status;
        Map<String, ApiResponse> responses = operation.getResponses() == null ? Map.of() : operation.getResponses();
        Optional<String> key = responseKey(responses.keySet(), status);
        if (key.isEmpty()) {
            return List.of(verb + " " + template + ": status " + status + " not documented (documented: "
                    + String.join(", ", responses.keySet()) + ")");
        }
        ApiResponse response = responses.get(key.get());
        String pointer = "/paths/" + escape(template) + "/" + verb.toLowerCase(Locale.ROOT) + "/responses/" + escape(key.get());
        if (response.get$ref() != null) {
            pointer = localPointer(response.get$ref());
            response = model.getComponents() == null || model.getComponents().getResponses() == null ? null
                    : model.getComponents().getResponses().get(lastSegment(response.get$ref()));
            if (response == null) {
                return List.of(where + ": response " + key.get() + " refers to " + pointer + ", which is not in the document");
            }
        }
        return content(where, response.getContent(), pointer, contentType, body);
    }

    /** The violations of one webhook body: its {@code event} names the entry of {@code webhooks} it is held to. */
    public List<String> checkWebhook(byte[] body) {
        JsonNode json;
        try {
            json = JSON.readTree(body);
        } catch (IOException e) {
            return List.of("webhook body is not JSON");
        }
        if (json == null || !json.path("event").isTextual()) {
            return List.of("webhook body has no \"event\" field");
        }
        String event = json.path("event").asText();
        Map<String, PathItem> webhooks = model.getWebhooks() == null ? Map.of() : model.getWebhooks();
        if (!webhooks.containsKey(event)) {
            return List.of("webhook " + event + ": event not documented under webhooks");
        }
        String where = "webhook " + event;
        PathItem item = pathItem(webhooks.get(event));
        if (item == null || item.getPost() == null || item.getPost().getRequestBody() == null) {
            return List.of(where + ": no post.requestBody documented");
        }
        RequestBody requestBody = item.getPost().getRequestBody();
        String pointer = webhooks.get(event).get$ref() != null ? localPointer(webhooks.get(event).get$ref()) + "/post/requestBody"
                : "/webhooks/" + escape(event) + "/post/requestBody";
        if (requestBody.get$ref() != null) {
            pointer = localPointer(requestBody.get$ref());
            requestBody = model.getComponents() == null || model.getComponents().getRequestBodies() == null ? null
                    : model.getComponents().getRequestBodies().get(lastSegment(requestBody.get$ref()));
            if (requestBody == null) {
                return List.of(where + ": request body refers to " + pointer + ", which is not in the document");
            }
        }
        return content(where, requestBody.getContent(), pointer, "application/json", body);
    }

    /** The webhook events the document names. */
    public List<String> webhookEvents() {
        return model.getWebhooks() == null ? List.of() : List.copyOf(model.getWebhooks().keySet());
    }

    private List<String> content(String where, Content content, String pointer, String contentType, byte[] body) {
        boolean empty = body == null || body.length == 0;
        if (content == null || content.isEmpty()) {
            if (empty) {
                return List.of();
            }
            return List.of(where + ": " + (isJson(contentType) || parses(body) ? "a JSON body" : "a body of " + body.length + " bytes")
                    + " where none is documented");
        }
        String documented = String.join(", ", content.keySet());
        if (empty) {
            return List.of(where + ": no body where " + documented + " is documented");
        }
        if (contentType == null || contentType.isBlank()) {
            return List.of(where + ": no Content-Type where " + documented + " is documented");
        }
        Optional<String> mediaKey = mediaKey(content.keySet(), contentType);
        if (mediaKey.isEmpty()) {
            return List.of(where + ": content type " + essence(contentType) + " not documented (documented: " + documented + ")");
        }
        MediaType media = content.get(mediaKey.get());
        if (!isJson(mediaKey.get()) || media == null || media.getSchema() == null) {
            return List.of(); // binary or schemaless: the status and the type are all there is to hold it to
        }
        JsonNode json;
        try {
            json = JSON.readTree(body);
        } catch (IOException e) {
            return List.of(where + ": body is not JSON");
        }
        JsonSchema schema = byPointer.computeIfAbsent(pointer + "/content/" + escape(mediaKey.get()) + "/schema",
                at -> schemas.getSchema(SchemaLocation.of(DOCUMENT_IRI + "#" + fragment(at)), config));
        List<String> violations = new ArrayList<>();
        for (ValidationMessage message : schema.validate(json)) {
            String location = message.getInstanceLocation().toString();
            violations.add(where + ": body " + (location.isEmpty() ? "(root)" : location) + ": " + message.getError());
        }
        violations.sort(Comparator.naturalOrder());
        return violations;
    }

    private PathItem pathItem(PathItem item) {
        if (item == null || item.get$ref() == null) {
            return item;
        }
        return model.getComponents() == null || model.getComponents().getPathItems() == null ? null
                : model.getComponents().getPathItems().get(lastSegment(item.get$ref()));
    }

    /** The matching template; where several match, literal segments win over parameters, from the left. */
    private Optional<Template> match(String path) {
        List<String> segments = segments(path);
        return templates.stream().filter(template -> template.matches(segments)).min(Template.LITERAL_FIRST);
    }

    private static boolean refusal(int status) {
        return status == 404 || status == 405;
    }

    /** The exact status, then its range ({@code 4XX}), then {@code default}. */
    static Optional<String> responseKey(Iterable<String> keys, int status) {
        Map<String, String> byUpperCase = new TreeMap<>();
        keys.forEach(key -> byUpperCase.put(key.toUpperCase(Locale.ROOT), key));
        for (String candidate : List.of(String.valueOf(status), (status / 100) + "XX", "DEFAULT")) {
            if (byUpperCase.containsKey(candidate)) {
                return Optional.of(byUpperCase.get(candidate));
            }
        }
        return Optional.empty();
    }

    /** The exact media type, then {@code type/*}, then {@code *}{@code /*}. */
    static Optional<String> mediaKey(Iterable<String> keys, String contentType) {
        String actual = essence(contentType);
        Map<String, String> byEssence = new LinkedHashMap<>();
        keys.forEach(key -> byEssence.put(essence(key), key));
        String range = actual.contains("/") ? actual.substring(0, actual.indexOf('/')) + "/*" : actual;
        for (String candidate : List.of(actual, range, "*/*")) {
            if (byEssence.containsKey(candidate)) {
                return Optional.of(byEssence.get(candidate));
            }
        }
        return Optional.empty();
    }

    private static String essence(String contentType) {
        int semicolon = contentType.indexOf(';');
        return (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).trim().toLowerCase(Locale.ROOT);
    }

    private static boolean isJson(String contentType) {
        if (contentType == null) {
            return false;
        }
        String type = essence(contentType);
        return type.equals("application/json") || type.endsWith("+json");
    }

    private static boolean parses(byte[] body) {
        try {
            JSON.readTree(body);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * The path as the platform's HTTP layer resolves it, so a call is held to the operation that
     * answered it: without its query; repeated slashes as one and {@code .}/{@code ..} segments
     * resolved (Vert.x normalises the path before any route sees it: {@code /v1/a//b} is
     * {@code /v1/a/b}); without one trailing slash, which Quarkus REST serves as the same resource
     * ({@code /v1/members/{id}/} is {@code /v1/members/{id}}).
     */
    private static String withoutQuery(String rawPath) {
        int query = rawPath.indexOf('?');
        int fragment = rawPath.indexOf('#');
        int end = query < 0 ? (fragment < 0 ? rawPath.length() : fragment) : query;
        String raw = rawPath.substring(0, end);
        List<String> kept = new ArrayList<>();
        for (String segment : raw.split("/")) {
            if (segment.isEmpty() || segment.equals(".")) {
                continue;
            }
            if (segment.equals("..")) {
                if (!kept.isEmpty()) {
                    kept.remove(kept.size() - 1);
                }
                continue;
            }
            kept.add(segment);
        }
        return "/" + String.join("/", kept);
    }

    static List<String> segments(String path) {
        List<String> segments = new ArrayList<>();
        for (String segment : path.split("/", -1)) {
            segments.add(segment);
        }
        return segments;
    }

    /** A {@code $ref} of this document ({@code #/components/responses/X}) as a JSON pointer; another document's is refused. */
    private static String localPointer(String ref) {
        if (!ref.startsWith("#")) {
            throw new IllegalArgumentException("only references inside the document are followed: " + ref);
        }
        return ref.substring(1);
    }

    private static String lastSegment(String ref) {
        return unescape(ref.substring(ref.lastIndexOf('/') + 1));
    }

    /** One JSON pointer token. */
    static String escape(String token) {
        return token.replace("~", "~0").replace("/", "~1");
    }

    private static String unescape(String token) {
        return token.replace("~1", "/").replace("~0", "~");
    }

    /** A JSON pointer as a URI fragment: everything but unreserved characters and the separators percent-encoded. */
    private static String fragment(String pointer) {
        StringBuilder out = new StringBuilder();
        for (byte b : pointer.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || "-._~/".indexOf(c) >= 0) {
                out.append(c);
            } else {
                out.append('%').append(String.format("%02X", b & 0xff));
            }
        }
        return out.toString();
    }

    /** A path template: its literal segments, and where its parameters are. */
    private record Template(String text, List<String> segments, List<Pattern> patterns) {

        /** Literal segments win over templated ones at the first position where two templates differ. */
        static final Comparator<Template> LITERAL_FIRST = (a, b) -> {
            for (int i = 0; i < Math.min(a.segments.size(), b.segments.size()); i++) {
                boolean aParam = a.patterns.get(i) != null;
                boolean bParam = b.patterns.get(i) != null;
                if (aParam != bParam) {
                    return aParam ? 1 : -1;
                }
            }
            return 0;
        };

        static Template of(String text) {
            List<String> segments = OpenApiContract.segments(text);
            List<Pattern> patterns = new ArrayList<>();
            for (String segment : segments) {
                if (segment.contains("{")) {
                    // {id} is one whole segment; a{id}.b keeps its literal parts around it.
                    StringBuilder regex = new StringBuilder();
                    int at = 0;
                    for (Matcher param = Pattern.compile("\\{[^}/]+}").matcher(segment); param.find(); ) {
                        regex.append(Pattern.quote(segment.substring(at, param.start()))).append("[^/]+");
                        at = param.end();
                    }
                    regex.append(Pattern.quote(segment.substring(at)));
                    patterns.add(Pattern.compile(regex.toString()));
                } else {
                    patterns.add(null);
                }
            }
            return new Template(text, segments, patterns);
        }

        boolean matches(List<String> path) {
            if (path.size() != segments.size()) {
                return false;
            }
            for (int i = 0; i < segments.size(); i++) {
                Pattern pattern = patterns.get(i);
                String segment = path.get(i);
                if (pattern == null ? !segments.get(i).equals(decode(segment)) && !segments.get(i).equals(segment)
                        : segment.isEmpty() || !pattern.matcher(segment).matches()) {
                    return false;
                }
            }
            return true;
        }

        private static String decode(String segment) {
            if (segment.indexOf('%') < 0) {
                return segment;
            }
            try {
                return URLDecoder.decode(segment.replace("+", "%2B"), StandardCharsets.UTF_8);
            } catch (IllegalArgumentException badEncoding) {
                return segment;
            }
        }
    }
}
