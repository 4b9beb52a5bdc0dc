package com.telemed.gateway.openapi;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.commonmark.parser.Parser;
import org.commonmark.renderer.html.HtmlRenderer;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.DocumentType;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.Entities;

/**
 * The reference page ({@code GET /docs}, issue #42): the partner document itself rendered on the
 * server into one HTML page, read-only, with no script at all, so its Content-Security-Policy can
 * forbid every script ({@link ApiDocuments#CONTENT_SECURITY_POLICY}) and a partner's browser shows no
 * warning and no console error. It replaced Swagger UI 5, which warns about any
 * {@code jsonSchemaDialect} but the OpenAPI default (ours is JSON Schema 2020-12, which the schemas
 * are written in), runs an inline script the policy blocks, and failed axe-core (contrast, unlabelled
 * selects, controls inside controls).
 *
 * <p>What it shows, in the document's order: the title, version and description; the credential
 * schemes; every operation under its first tag (tags in the document's order, then the tags only
 * operations name), each a closed {@code <details>} whose {@code <summary>} is its method, path and
 * summary (open: description, credential, parameters, request body, responses with their examples);
 * the webhooks; then, shown open (a link lands on their content: Chromium does not open a closed
 * {@code <details>} for a fragment), the shared responses and every schema, each property with its
 * type, constraints and description. A {@code $ref} is a link to its schema's or response's own
 * entry. Descriptions are Markdown (CommonMark, with raw HTML escaped and unsafe link targets
 * dropped); the page is built as a tree (jsoup), so every text is escaped. Styles come from
 * {@code /docs/reference.css}, never from a {@code style} attribute.
 *
 * <p>Pure: the document in, the page's bytes out; built once at startup with the document.
 */
public final class ReferencePage {

    /** The page's stylesheet and icon, served next to it under {@code /docs/}. */
    public static final String STYLESHEET = "/docs/reference.css";
    public static final String ICON = "/docs/favicon.svg";

    private static final List<String> METHODS = List.of("get", "put", "post", "delete", "patch", "head", "options", "trace");
    private static final int DEEPEST = 6;
    private static final Parser MARKDOWN = Parser.builder().build();
    private static final HtmlRenderer HTML = HtmlRenderer.builder().escapeHtml(true).sanitizeUrls(true).build();
    /** Examples as a reader writes JSON: two spaces, {@code "name": value}. */
    private static final ObjectWriter JSON = new ObjectMapper().writer(new DefaultPrettyPrinter()
            .withSeparators(Separators.createDefaultInstance().withObjectFieldValueSpacing(Separators.Spacing.AFTER)));

    private final JsonNode document;
    private final Set<String> ids = new HashSet<>();

    private ReferencePage(JsonNode document) {
        this.document = document;
    }

    /** The page of {@code document} (an OpenAPI 3.1 tree), as UTF-8 HTML. */
    public static byte[] render(JsonNode document) {
        return new ReferencePage(document).page().getBytes(StandardCharsets.UTF_8);
    }

    /** An operation and where it is. */
    private record Operation(String method, String path, JsonNode operation) {
    }

    private String page() {
        String title = document.path("info").path("title").asText("API reference");
        Document page = Document.createShell("");
        page.outputSettings().charset(StandardCharsets.UTF_8).escapeMode(Entities.EscapeMode.base).prettyPrint(false);
        page.prependChild(new DocumentType("html", "", ""));
        page.selectFirst("html").attr("lang", "en");
        Element head = page.head();
        head.appendElement("meta").attr("charset", "utf-8");
        head.appendElement("meta").attr("name", "viewport").attr("content", "width=device-width, initial-scale=1");
        head.appendElement("title").text(title + " - reference");
        head.appendElement("link").attr("rel", "stylesheet").attr("href", STYLESHEET);
        head.appendElement("link").attr("rel", "icon").attr("type", "image/svg+xml").attr("href", ICON);

        Element body = page.body();
        body.appendElement("a").addClass("skip-link").attr("href", "#reference").text("Skip to the reference");
        body.appendElement("header").addClass("site-header").appendElement("p").addClass("site-name").text(title);
        Element main = body.appendElement("main").attr("id", "reference").addClass("page");
        claim("reference");

        main.appendElement("h1").text(title);
        Element about = main.appendElement("p").addClass("about");
        about.appendText("Version " + document.path("info").path("version").asText() + ", OpenAPI "
                + document.path("openapi").asText() + ". The document itself: ");
        about.appendElement("a").attr("href", "/openapi.json").text("openapi.json");
        about.appendText(", ");
        about.appendElement("a").attr("href", "/openapi.yaml").text("openapi.yaml");
        about.appendText(".");
        markdown(main, document.path("info").path("description"));

        Map<String, List<Operation>> byTag = operationsByTag();
        Element contents = main.appendElement("nav").attr("aria-labelledby", "contents");
        contents.appendElement("h2").attr("id", claim("contents")).text("Contents");
        Element list = contents.appendElement("ul").addClass("contents");
        item(list, "#credentials", "Credentials");
        byTag.forEach((tag, operations) -> item(list, "#" + tagId(tag), tag + " (" + operations.size() + ")"));
        if (document.path("webhooks").size() > 0) {
            item(list, "#webhooks", "Webhooks (" + document.path("webhooks").size() + ")");
        }
        item(list, "#responses", "Shared responses");
        item(list, "#schemas", "Schemas");

        credentials(main);
        byTag.forEach((tag, operations) -> {
            Element section = section(main, tagId(tag), tag);
            tagDescription(tag).ifPresent(description -> markdown(section, description));
            operations.forEach(operation -> operation(section, operation, false));
        });
        webhooks(main);
        sharedResponses(main);
        schemas(main);

        body.appendElement("footer").addClass("site-footer").appendElement("p")
                .text("Generated from this deployment's partner document (/openapi.json).");
        return page.outerHtml();
    }

    private static void item(Element list, String href, String text) {
        list.appendElement("li").appendElement("a").attr("href", href).text(text);
    }

    private Element section(Element main, String id, String heading) {
        Element section = main.appendElement("section").attr("aria-labelledby", id);
        section.appendElement("h2").attr("id", claim(id)).text(heading);
        return section;
    }

    /** Records an id the page uses, failing on a second use (every anchor is one element's). */
    private String claim(String id) {
        if (!ids.add(id)) {
            throw new IllegalStateException("two elements of the reference page have the id " + id);
        }
        return id;
    }

    /** Every operation under its first tag: the document's tags in order, then the tags only operations name, then none. */
    private Map<String, List<Operation>> operationsByTag() {
        Map<String, List<Operation>> byTag = new LinkedHashMap<>();
        document.path("tags").forEach(tag -> byTag.put(tag.path("name").asText(), new ArrayList<>()));
        document.path("paths").fields().forEachRemaining(path -> {
            // An operation without a tag goes with its path's others (the edge's own answers, such as a 405 preflight).
            String pathTag = "Other";
            for (String method : METHODS) {
                if (path.getValue().path(method).path("tags").size() > 0) {
                    pathTag = path.getValue().get(method).get("tags").get(0).asText();
                    break;
                }
            }
            for (String method : METHODS) {
                JsonNode operation = path.getValue().get(method);
                if (operation != null) {
                    String tag = operation.path("tags").path(0).asText(pathTag);
                    byTag.computeIfAbsent(tag, ignored -> new ArrayList<>()).add(new Operation(method, path.getKey(), operation));
                }
            }
        });
        byTag.values().removeIf(List::isEmpty);
        return byTag;
    }

    private Optional<JsonNode> tagDescription(String tag) {
        for (JsonNode each : document.path("tags")) {
            if (each.path("name").asText().equals(tag) && each.has("description")) {
                return Optional.of(each.get("description"));
            }
        }
        return Optional.empty();
    }

    private static String tagId(String tag) {
        return "tag-" + slug(tag);
    }

    private void credentials(Element main) {
        Element section = section(main, "credentials", "Credentials");
        JsonNode schemes = document.path("components").path("securitySchemes");
        Element list = section.appendElement("dl").addClass("fields");
        schemes.fields().forEachRemaining(scheme -> {
            JsonNode value = scheme.getValue();
            Element term = list.appendElement("dt").attr("id", claim("credential-" + slug(scheme.getKey())));
            term.appendElement("code").text(scheme.getKey());
            Element definition = list.appendElement("dd");
            Element where = definition.appendElement("p");
            if (value.path("type").asText().equals("apiKey")) {
                where.appendText("The " + value.path("in").asText() + " " + (value.path("in").asText().equals("query") ? "parameter " : ""));
                where.appendElement("code").text(value.path("name").asText());
            } else {
                where.appendText(value.path("type").asText() + " " + value.path("scheme").asText(""));
            }
            markdown(definition, value.path("description"));
        });
    }

    private void operation(Element parent, Operation operation, boolean webhook) {
        JsonNode value = operation.operation();
        String anchor = webhook ? "webhook-" + slug(operation.path())
                : "operation-" + slug(value.has("operationId") ? value.get("operationId").asText()
                        : operation.method() + "-" + operation.path());
        Element details = parent.appendElement("details").addClass("operation").attr("id", claim(anchor));
        Element summary = details.appendElement("summary");
        summary.appendElement("span").addClass("method").addClass(operation.method()).text(operation.method().toUpperCase());
        summary.appendText(" ");
        summary.appendElement("code").addClass("path").text(operation.path());
        if (value.hasNonNull("summary") && !(webhook && value.get("summary").asText().equals(operation.path()))) {
            summary.appendText(" ");
            summary.appendElement("span").addClass("summary").text(value.get("summary").asText());
        }
        Element content = details.appendElement("div").addClass("operation-body");
        markdown(content, value.path("description"));
        if (!webhook) {
            Element credential = content.appendElement("p").addClass("credential");
            credential.appendText("Credential: ");
            JsonNode security = value.has("security") ? value.get("security") : document.path("security");
            List<String> names = new ArrayList<>();
            security.forEach(requirement -> requirement.fieldNames().forEachRemaining(names::add));
            if (names.isEmpty()) {
                credential.appendText("none.");
            } else {
                for (int i = 0; i < names.size(); i++) {
                    if (i > 0) {
                        credential.appendText(" or ");
                    }
                    credential.appendElement("a").attr("href", "#credential-" + slug(names.get(i))).text(names.get(i));
                }
                credential.appendText(".");
            }
        }
        if (value.path("parameters").size() > 0) {
            content.appendElement("h3").text(webhook ? "Headers" : "Parameters");
            Element list = content.appendElement("dl").addClass("fields");
            value.get("parameters").forEach(parameter -> {
                JsonNode resolved = resolve(parameter);
                Element term = list.appendElement("dt");
                term.appendElement("code").text(resolved.path("name").asText());
                term.appendText(" ");
                term.appendElement("span").addClass("where").text("in " + resolved.path("in").asText());
                if (resolved.path("required").asBoolean(false)) {
                    term.appendText(" ");
                    term.appendElement("span").addClass("required").text("required");
                }
                Element definition = list.appendElement("dd");
                type(definition.appendElement("p").addClass("type"), resolved.path("schema"));
                markdown(definition, resolved.path("description"));
            });
        }
        if (value.has("requestBody")) {
            JsonNode requestBody = resolve(value.get("requestBody"));
            content.appendElement("h3").text((webhook ? "Payload" : "Request body")
                    + (requestBody.path("required").asBoolean(false) ? " (required)" : ""));
            markdown(content, requestBody.path("description"));
            contentOf(content, requestBody.path("content"), true);
        }
        content.appendElement("h3").text(webhook ? "Your answer" : "Responses");
        responses(content, value.path("responses"));
    }

    private void responses(Element parent, JsonNode responses) {
        Element list = parent.appendElement("dl").addClass("responses");
        responses.fields().forEachRemaining(response -> {
            Element term = list.appendElement("dt");
            term.appendElement("span").addClass("status").text(response.getKey());
            Element definition = list.appendElement("dd");
            JsonNode value = response.getValue();
            if (value.has("$ref")) {
                JsonNode shared = resolve(value);
                Element line = definition.appendElement("p");
                line.appendText(firstLine(shared.path("description").asText()) + " (");
                line.appendElement("a").attr("href", "#response-" + slug(refName(value))).text(refName(value));
                line.appendText(")");
                return;
            }
            markdown(definition, value.path("description"));
            headers(definition, value.path("headers"));
            contentOf(definition, value.path("content"), response.getKey().startsWith("2"));
        });
    }

    private void headers(Element parent, JsonNode headers) {
        if (headers.size() == 0) {
            return;
        }
        Element line = parent.appendElement("p").addClass("headers");
        line.appendText("Headers: ");
        List<String> names = new ArrayList<>();
        headers.fieldNames().forEachRemaining(names::add);
        for (int i = 0; i < names.size(); i++) {
            if (i > 0) {
                line.appendText(", ");
            }
            line.appendElement("code").text(names.get(i));
        }
    }

    /**
     * Each media type: its schema and its examples. {@code fields}: the schema's properties listed in
     * place even when it is a named schema (a request body, a success), as a reader wants them there.
     */
    private void contentOf(Element parent, JsonNode content, boolean fields) {
        content.fields().forEachRemaining(media -> {
            Element line = parent.appendElement("p").addClass("type");
            line.appendElement("code").text(media.getKey());
            if (media.getValue().has("schema")) {
                line.appendText(": ");
                type(line, media.getValue().get("schema"));
                JsonNode schema = media.getValue().get("schema");
                if (!schema.has("$ref") || fields) {
                    properties(parent, resolve(schema), 1);
                }
            }
            JsonNode examples = media.getValue().path("examples");
            if (examples.size() > 0) {
                Element list = parent.appendElement("ul").addClass("examples");
                examples.fields().forEachRemaining(example -> {
                    JsonNode resolved = resolve(example.getValue());
                    Element item = list.appendElement("li");
                    item.appendElement("p").addClass("example-name")
                            .text(resolved.has("summary") ? resolved.get("summary").asText() : example.getKey());
                    if (resolved.has("value")) {
                        item.appendElement("pre").appendElement("code").text(json(resolved.get("value")));
                    }
                });
            } else if (media.getValue().has("example")) {
                parent.appendElement("pre").appendElement("code").text(json(media.getValue().get("example")));
            }
        });
    }

    private void webhooks(Element main) {
        JsonNode webhooks = document.path("webhooks");
        if (webhooks.size() == 0) {
            return;
        }
        Element section = section(main, "webhooks", "Webhooks");
        section.appendElement("p").text("What this platform posts to your webhook URL: one request per event.");
        webhooks.fields().forEachRemaining(webhook -> METHODS.forEach(method -> {
            JsonNode operation = webhook.getValue().get(method);
            if (operation != null) {
                operation(section, new Operation(method, webhook.getKey(), operation), true);
            }
        }));
    }

    private void sharedResponses(Element main) {
        Element section = section(main, "responses", "Shared responses");
        section.appendElement("p").text("Answers many operations give, each listed by its status under the operation.");
        document.path("components").path("responses").fields().forEachRemaining(response -> {
            Element content = section.appendElement("div").addClass("component")
                    .attr("id", claim("response-" + slug(response.getKey())));
            content.appendElement("h3").appendElement("code").text(response.getKey());
            markdown(content, response.getValue().path("description"));
            headers(content, response.getValue().path("headers"));
            contentOf(content, response.getValue().path("content"), false);
        });
    }

    private void schemas(Element main) {
        Element section = section(main, "schemas", "Schemas");
        document.path("components").path("schemas").fields().forEachRemaining(schema -> {
            Element content = section.appendElement("div").addClass("component")
                    .attr("id", claim("schema-" + slug(schema.getKey())));
            content.appendElement("h3").appendElement("code").text(schema.getKey());
            JsonNode value = schema.getValue();
            markdown(content, value.path("description"));
            type(content.appendElement("p").addClass("type"), value);
            properties(content, value, 1);
        });
    }

    /** The properties of an object schema (and of its {@code allOf} parts written in place), one entry each. */
    private void properties(Element parent, JsonNode schema, int depth) {
        List<JsonNode> parts = new ArrayList<>();
        parts.add(schema);
        schema.path("allOf").forEach(part -> {
            if (!part.has("$ref")) {
                parts.add(part);
            }
        });
        Element list = null;
        for (JsonNode part : parts) {
            Set<String> required = new HashSet<>();
            part.path("required").forEach(name -> required.add(name.asText()));
            for (Map.Entry<String, JsonNode> property : iterable(part.path("properties"))) {
                if (list == null) {
                    list = parent.appendElement("dl").addClass("fields");
                }
                Element term = list.appendElement("dt");
                term.appendElement("code").text(property.getKey());
                if (required.contains(property.getKey())) {
                    term.appendText(" ");
                    term.appendElement("span").addClass("required").text("required");
                }
                Element definition = list.appendElement("dd");
                JsonNode value = property.getValue();
                type(definition.appendElement("p").addClass("type"), value);
                markdown(definition, value.path("description"));
                JsonNode nested = value.path("type").asText().equals("array") ? value.path("items") : value;
                if (depth < DEEPEST && !nested.has("$ref") && (nested.has("properties") || nested.has("allOf"))) {
                    properties(definition, nested, depth + 1);
                }
            }
        }
    }

    private static Iterable<Map.Entry<String, JsonNode>> iterable(JsonNode object) {
        return object::fields;
    }

    /** A schema's type in a few words: its type(s), format, the schema it refers to, its alternatives, values and bounds. */
    private void type(Element line, JsonNode schema) {
        if (schema.has("$ref")) {
            line.appendElement("a").attr("href", "#schema-" + slug(refName(schema))).text(refName(schema));
            return;
        }
        boolean written = false;
        for (String combination : List.of("oneOf", "anyOf", "allOf")) {
            if (schema.has(combination)) {
                line.appendText(written ? "; " : "");
                line.appendText(switch (combination) {
                    case "oneOf" -> "one of ";
                    case "anyOf" -> "any of ";
                    default -> "all of ";
                });
                JsonNode parts = schema.get(combination);
                for (int i = 0; i < parts.size(); i++) {
                    if (i > 0) {
                        line.appendText(combination.equals("allOf") ? " and " : i == parts.size() - 1 ? " or " : ", ");
                    }
                    JsonNode part = parts.get(i);
                    if (part.has("$ref") || part.has("type") || part.has("const") || part.has("enum")) {
                        type(line, part);
                    } else {
                        line.appendText(part.has("properties") ? "an object" : "a schema");
                    }
                }
                written = true;
            }
        }
        List<String> types = new ArrayList<>();
        if (schema.path("type").isArray()) {
            schema.get("type").forEach(type -> types.add(type.asText()));
        } else if (schema.has("type")) {
            types.add(schema.get("type").asText());
        }
        for (int i = 0; i < types.size(); i++) {
            line.appendText(written || i > 0 ? (i > 0 ? " or " : "; ") : "");
            String type = types.get(i);
            if (type.equals("array")) {
                line.appendText("array of ");
                JsonNode items = schema.path("items");
                if (items.isMissingNode() || items.size() == 0) {
                    line.appendText("anything");
                } else {
                    type(line, items);
                }
            } else {
                line.appendText(type);
            }
            written = true;
        }
        if (schema.has("format")) {
            line.appendText(" (" + schema.get("format").asText() + ")");
        }
        if (schema.has("const")) {
            line.appendText(written ? ", exactly " : "exactly ");
            line.appendElement("code").text(json(schema.get("const")));
            written = true;
        }
        if (schema.has("enum")) {
            line.appendText(written ? ", one of " : "one of ");
            JsonNode values = schema.get("enum");
            for (int i = 0; i < values.size(); i++) {
                if (i > 0) {
                    line.appendText(", ");
                }
                line.appendElement("code").text(json(values.get(i)));
            }
            written = true;
        }
        List<String> bounds = new ArrayList<>();
        bound(bounds, schema, "minLength", "at least %s characters");
        bound(bounds, schema, "maxLength", "at most %s characters");
        bound(bounds, schema, "minItems", "at least %s items");
        bound(bounds, schema, "maxItems", "at most %s items");
        bound(bounds, schema, "minimum", "at least %s");
        bound(bounds, schema, "maximum", "at most %s");
        bound(bounds, schema, "exclusiveMinimum", "more than %s");
        bound(bounds, schema, "exclusiveMaximum", "less than %s");
        if (!bounds.isEmpty()) {
            line.appendText((written ? ", " : "") + String.join(", ", bounds));
            written = true;
        }
        if (schema.has("pattern")) {
            line.appendText(written ? ", matching " : "matching ");
            line.appendElement("code").text(schema.get("pattern").asText());
            written = true;
        }
        if (schema.has("default")) {
            line.appendText(written ? ", default " : "default ");
            line.appendElement("code").text(json(schema.get("default")));
            written = true;
        }
        if (!written) {
            line.appendText("any value");
        }
    }

    private static void bound(List<String> bounds, JsonNode schema, String keyword, String text) {
        if (schema.has(keyword)) {
            String value = schema.get(keyword).asText();
            // "at least 1 character", "at most 2 items"
            bounds.add(text.formatted(value).replaceAll("(character|item)s$", value.equals("1") ? "$1" : "$1s"));
        }
    }

    /** A {@code $ref} to this document's components followed (one level: the components refer to none). */
    private JsonNode resolve(JsonNode node) {
        if (!node.has("$ref")) {
            return node;
        }
        String ref = node.get("$ref").asText();
        if (!ref.startsWith("#/")) {
            return node;
        }
        return resolve(document.at(ref.substring(1)));
    }

    private static String refName(JsonNode node) {
        String ref = node.get("$ref").asText();
        return ref.substring(ref.lastIndexOf('/') + 1);
    }

    private static void markdown(Element parent, JsonNode text) {
        if (text.isTextual() && !text.asText().isBlank()) {
            parent.appendElement("div").addClass("description").append(HTML.render(MARKDOWN.parse(text.asText())));
        }
    }

    private static String firstLine(String text) {
        String line = text.strip();
        int end = line.indexOf('\n');
        return end < 0 ? line : line.substring(0, end);
    }

    private static String json(JsonNode value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** An id's part made of a name: letters, digits, {@code . _}; each run of anything else becomes one {@code -}. */
    static String slug(String name) {
        return name.replaceAll("[^A-Za-z0-9._]+", "-").replaceAll("-{2,}", "-").replaceAll("^-|-$", "");
    }
}
