package com.telemed.gateway.openapi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.telemed.gateway.edge.Routes;
import com.telemed.gateway.edge.Surface;
import com.telemed.gateway.edge.Upstream;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The documents as the gateway serves them (built by {@link OpenApiDocuments}, exactly the bytes
 * of {@code /openapi.json} and friends): valid OpenAPI 3.1, the same in JSON and YAML, naming every
 * route of the routing table and nothing it does not route, and every webhook event the services emit.
 */
class OpenApiDocumentTest {

    private static final OpenApiDocuments.Document PARTNER = OpenApiDocuments.partner();
    private static final OpenApiDocuments.Document OPERATIONS = OpenApiDocuments.operations();
    private static final List<String> METHODS = List.of("get", "put", "post", "delete", "options", "head", "patch");

    /** The upstream each module is: where the routing table must send the operations its code describes. */
    private static final Map<String, Upstream> UPSTREAM_OF_MODULE = Map.of(
            "gateway", Upstream.GATEWAY,
            "requests-service", Upstream.REQUESTS,
            "members-service", Upstream.MEMBERS,
            "catalogue-service", Upstream.CATALOGUE,
            "messaging-service", Upstream.MESSAGING,
            "billing-service", Upstream.BILLING,
            "webhook-service", Upstream.WEBHOOK);

    /** {@code "get /v1/requests/{id}"} to the upstream whose code it was generated from. */
    private static final Map<String, Upstream> OWNER = owners();

    private static Map<String, Upstream> owners() {
        Map<String, Upstream> owners = new HashMap<>();
        for (String module : OpenApiDocuments.MODULES) {
            OpenApiDocuments.read("openapi/generated/" + module + ".yaml").path("paths").fields().forEachRemaining(path ->
                    path.getValue().fieldNames().forEachRemaining(method -> owners.put(method + " " + path.getKey(),
                            UPSTREAM_OF_MODULE.get(module))));
        }
        return owners;
    }

    @Test
    void everyModuleDescribesItsOwnOperationsAndEveryOperationIsInOneDocument() {
        assertEquals(UPSTREAM_OF_MODULE.keySet(), Set.copyOf(OpenApiDocuments.MODULES));
        for (String module : OpenApiDocuments.MODULES) {
            assertTrue(OpenApiDocuments.read("openapi/generated/" + module + ".yaml").path("paths").size() > 0, module);
        }
        int served = 0;
        for (OpenApiDocuments.Document document : List.of(PARTNER, OPERATIONS)) {
            for (JsonNode path : document.tree().path("paths")) {
                for (String method : METHODS) {
                    served += path.has(method) && !method.equals("options") ? 1 : 0;
                }
            }
        }
        // Every generated operation is served once (the options of the browser surfaces are the gateway's own).
        assertEquals(OWNER.size() - OWNER.keySet().stream().filter(key -> key.startsWith("options ")).count(), served);
    }

    @Test
    void bothDocumentsParseAsOpenApi31InBothFormats() {
        for (OpenApiDocuments.Document document : List.of(PARTNER, OPERATIONS)) {
            for (byte[] encoded : List.of(document.json(), document.yaml())) {
                SwaggerParseResult result = parse(new String(encoded, StandardCharsets.UTF_8));
                assertEquals(List.of(), result.getMessages());
                assertNotNull(result.getOpenAPI());
                assertTrue(result.getOpenAPI().getOpenapi().startsWith("3.1."), result.getOpenAPI().getOpenapi());
            }
        }
    }

    @Test
    void theJsonAndTheYamlAreTheSameDocument() throws IOException {
        for (OpenApiDocuments.Document document : List.of(PARTNER, OPERATIONS)) {
            JsonNode json = new ObjectMapper().readTree(document.json());
            JsonNode yaml = new YAMLMapper().readTree(document.yaml());
            assertEquals(json, yaml);
            assertEquals(document.tree(), json);
        }
    }

    @Test
    void everyReferenceResolves() {
        for (OpenApiDocuments.Document document : List.of(PARTNER, OPERATIONS)) {
            List<String> dangling = new ArrayList<>();
            collectRefs(document.tree(), new ArrayList<>()).forEach(ref -> {
                if (document.tree().at(ref.substring(1)).isMissingNode()) {
                    dangling.add(ref);
                }
            });
            assertEquals(List.of(), dangling);
        }
    }

    @Test
    void everyPartnerRouteHasADocumentedPath() {
        Set<String> paths = paths(PARTNER);
        Routes.prefixes().forEach((prefix, route) -> {
            if (route.surface() == Surface.PARTNER || route.surface() == Surface.EMBED) {
                assertTrue(paths.stream().anyMatch(path -> path.equals(prefix) || path.startsWith(prefix + "/")),
                        "nothing documented under " + prefix);
            }
        });
        assertTrue(paths.contains(Routes.ATTACHMENT_LINK_TEMPLATE));
    }

    @Test
    void everyDocumentedPartnerPathIsRoutedToItsSurfaceAndOwner() {
        assertRoutedAsDocumented(PARTNER, Set.of(Surface.PARTNER, Surface.EMBED, Surface.PUBLIC));
    }

    @Test
    void everyOperatorRouteHasADocumentedPath() {
        Set<String> paths = paths(OPERATIONS);
        Routes.prefixes().forEach((prefix, route) -> {
            if (route.surface() == Surface.OPS) {
                assertTrue(paths.stream().anyMatch(path -> path.equals(prefix) || path.startsWith(prefix + "/")),
                        "nothing documented under " + prefix);
            }
        });
        Routes.partnerSettings().forEach((setting, upstream) -> {
            Pattern pattern = Pattern.compile(setting);
            boolean documented = setting.startsWith("/")
                    ? paths.contains(setting)
                    : paths.stream()
                            .filter(path -> path.startsWith("/ops/v1/partners/{"))
                            .map(path -> path.replaceFirst("^/ops/v1/partners/\\{[^}]+}/?", ""))
                            .anyMatch(rest -> pattern.matcher(OpenApiDocuments.sample(rest)).matches());
            assertTrue(documented, "no partner setting documented for " + setting);
        });
    }

    @Test
    void everyDocumentedOperatorPathIsRoutedToTheOpsSurfaceAndItsOwner() {
        assertRoutedAsDocumented(OPERATIONS, Set.of(Surface.OPS));
    }

    @Test
    void everyOperationAnswersWithTheCredentialOfItsSurface() {
        PARTNER.tree().path("paths").fields().forEachRemaining(path -> {
            Surface surface = Routes.resolve(OpenApiDocuments.sample(path.getKey())).orElseThrow().surface();
            path.getValue().fields().forEachRemaining(operation -> {
                if (!METHODS.contains(operation.getKey()) || operation.getKey().equals("options")) {
                    return;
                }
                JsonNode security = operation.getValue().path("security");
                JsonNode responses = operation.getValue().path("responses");
                String where = operation.getKey() + " " + path.getKey();
                switch (surface) {
                    case PARTNER -> {
                        assertTrue(security.isMissingNode(), where + " takes the document's API key");
                        assertEquals("#/components/responses/Unauthorized", responses.path("401").path("$ref").asText(), where);
                    }
                    case EMBED -> {
                        assertTrue(security.get(0).has("publishableKey"), where);
                        assertEquals("#/components/responses/EmbedUnauthorized", responses.path("401").path("$ref").asText(), where);
                        assertEquals("#/components/responses/OriginNotAllowed", responses.path("403").path("$ref").asText(), where);
                    }
                    case PUBLIC -> {
                        assertEquals(0, security.size(), where + " takes no credential");
                        assertFalse(responses.has("401"), where);
                    }
                    case OPS -> throw new AssertionError(where);
                }
                assertTrue(hasSuccess(responses), where + " documents no success");
            });
        });
        assertEquals("x-api-key", PARTNER.tree().at("/components/securitySchemes/apiKey/name").asText());
        assertEquals("header", PARTNER.tree().at("/components/securitySchemes/apiKey/in").asText());
        assertEquals("x-service-publishable-key", PARTNER.tree().at("/components/securitySchemes/publishableKey/name").asText());
        assertEquals("token", PARTNER.tree().at("/components/securitySchemes/surveyToken/name").asText());
        assertEquals("x-ops-key", OPERATIONS.tree().at("/components/securitySchemes/opsKey/name").asText());
    }

    /**
     * Issue 45: every request body, the operator's as the partner's, is described by its fields: a schema
     * (followed through its {@code $ref}s) that names properties or composes schemas that do, never a
     * bare {@code {"type":"object"}}, which tells a client nothing of what to send.
     */
    @Test
    void everyRequestBodyHasARealSchema() {
        List<String> bare = new ArrayList<>();
        int bodies = 0;
        for (OpenApiDocuments.Document document : List.of(OPERATIONS, PARTNER)) {
            JsonNode tree = document.tree();
            var paths = tree.path("paths").fields();
            while (paths.hasNext()) {
                var path = paths.next();
                for (String method : METHODS) {
                    JsonNode body = followed(tree, path.getValue().path(method).path("requestBody"));
                    if (body.isMissingNode()) {
                        continue;
                    }
                    var media = body.path("content").fields();
                    while (media.hasNext()) {
                        var type = media.next();
                        bodies++;
                        if (!describesFields(tree, type.getValue().path("schema"))) {
                            bare.add(method + " " + path.getKey() + " " + type.getKey() + ": " + type.getValue().path("schema"));
                        }
                    }
                }
            }
        }
        assertEquals(List.of(), bare);
        assertTrue(bodies > 40, "request bodies walked: " + bodies);
    }

    /** Issue 45: every partner setting the edge forwards documents its 404 for a partner the gateway does not know. */
    @Test
    void everyForwardedPartnerSettingDocumentsPartnerNotFound() {
        JsonNode tree = OPERATIONS.tree();
        List<String> documented = new ArrayList<>();
        tree.path("paths").fields().forEachRemaining(path -> {
            if (Routes.forwardedPartnerSetting(OpenApiDocuments.sample(path.getKey())).isEmpty()) {
                return;
            }
            path.getValue().fields().forEachRemaining(operation -> {
                if (!METHODS.contains(operation.getKey())) {
                    return;
                }
                JsonNode notFound = followed(tree, operation.getValue().path("responses").path("404"));
                List<String> errors = new ArrayList<>();
                notFound.at("/content/application~1json/examples").forEach(example ->
                        errors.add(followed(tree, example).at("/value/error").asText()));
                assertTrue(errors.contains("Partner not found"), operation.getKey() + " " + path.getKey() + ": " + errors);
                documented.add(operation.getKey() + " " + path.getKey());
            });
        });
        assertEquals(10, documented.size(), documented.toString());
    }

    /**
     * The operator bodies described for issue 45 say what requests-service's schemas take
     * ({@code ReviewSchemas}, {@code AppointmentSchemas}, {@code AvailabilitySchemas}): a body the service
     * takes is valid against its description, one it refuses for its shape is not.
     */
    @Test
    void theOperatorBodiesTakeWhatTheServiceTakes() throws IOException {
        ObjectMapper json = new ObjectMapper();
        String prescription = "{\"quantity\":30,\"quantityUnits\":\"tablets\",\"daysSupply\":30,\"directions\":\"One tablet daily\","
                + "\"refills\":1,\"dispenseAsWritten\":false,\"clinicalDose\":{\"value\":2.5,\"unit\":\"mg\"},\"dosingIntervalDays\":null}";
        Map<String, List<String>> valid = Map.ofEntries(
                Map.entry("post /ops/v1/requests/{id}/claim", List.of("{\"prescriberId\":\"p1\"}", "{}")),
                Map.entry("post /ops/v1/requests/{id}/notes", List.of("{\"prescriberId\":\"p1\",\"text\":\"Called the patient\"}")),
                Map.entry("post /ops/v1/requests/{id}/approve", List.of("{\"prescriberId\":\"p1\",\"drugId\":\"d1\",\"prescription\":" + prescription + "}",
                        "{\"prescription\":{\"quantity\":\"30 tablets\",\"daysSupply\":30,\"directions\":\"Daily\",\"refills\":0,\"dispenseAsWritten\":true}}")),
                Map.entry("post /ops/v1/requests/{id}/deny", List.of("{\"prescriberId\":\"p1\",\"reason\":\"Contraindicated\"}", "{\"prescriberId\":null}")),
                Map.entry("post /ops/v1/requests/{id}/complete-without-rx", List.of("{\"prescriberId\":\"p1\"}")),
                Map.entry("post /ops/v1/requests/{id}/request-consultation", List.of("{\"prescriberId\":\"p1\"}")),
                Map.entry("post /ops/v1/requests/{id}/items/{itemId}/approve", List.of("{\"prescriberId\":\"p1\",\"prescription\":" + prescription + "}")),
                Map.entry("post /ops/v1/requests/{id}/items/{itemId}/deny", List.of("{\"reason\":\"Not suitable\"}")),
                Map.entry("post /ops/v1/requests/{id}/items/{itemId}/request-consultation", List.of("{\"prescriberId\":\"p1\"}")),
                Map.entry("post /ops/v1/requests/{id}/items/{itemId}/dosage", List.of("{\"prescriberId\":\"p1\",\"skuId\":\"sku-5mg\"}")),
                Map.entry("put /ops/v1/prescribers/{id}/availability", List.of("{\"timezone\":\"Europe/Paris\",\"weekly\":[{\"weekday\":1,"
                        + "\"start\":\"09:00\",\"end\":\"12:00\"},{\"weekday\":1,\"start\":\"12:00\",\"end\":\"24:00\"}],\"slotMinutes\":30}")),
                Map.entry("post /ops/v1/appointments/{id}/reschedule", List.of("{\"startTime\":\"2030-01-07T09:00:00+01:00\",\"durationMinutes\":30,\"timezone\":\"Europe/Paris\"}",
                        "{\"startTime\":\"2030-01-07T08:00:00Z\"}")),
                Map.entry("post /ops/v1/appointments/{id}/cancel", List.of("{\"cancelledBy\":\"patient\",\"reason\":\"Travelling\"}")),
                Map.entry("post /ops/v1/appointments/{id}/outcome", List.of("{\"outcome\":\"no_show\"}")),
                Map.entry("post /ops/v1/bookings/{token}/appointment/reschedule", List.of("{\"startTime\":\"2030-01-07T08:00:00Z\",\"timezone\":\"UTC\"}")),
                Map.entry("post /ops/v1/bookings/{token}/appointment/cancel", List.of("{}", "{\"reason\":\"Feeling better\"}")));
        Map<String, List<String>> refused = Map.ofEntries(
                Map.entry("post /ops/v1/requests/{id}/notes", List.of("{\"prescriberId\":\"p1\",\"text\":\"\"}", "{\"prescriberId\":\"p1\"}")),
                Map.entry("post /ops/v1/requests/{id}/approve", List.of("{\"prescriberId\":\"p1\"}",
                        "{\"prescription\":{\"quantity\":\" \",\"daysSupply\":30,\"directions\":\"Daily\",\"refills\":0,\"dispenseAsWritten\":true}}",
                        "{\"prescription\":{\"quantity\":30,\"daysSupply\":0,\"directions\":\"Daily\",\"refills\":0,\"dispenseAsWritten\":true}}")),
                Map.entry("post /ops/v1/requests/{id}/claim", List.of("{\"prescriberId\":\"\"}", "{\"prescriberId\":7}")),
                Map.entry("post /ops/v1/requests/{id}/items/{itemId}/dosage", List.of("{\"prescriberId\":\"p1\"}")),
                Map.entry("put /ops/v1/prescribers/{id}/availability", List.of("{\"timezone\":\"Europe/Paris\",\"weekly\":[{\"weekday\":8,"
                        + "\"start\":\"09:00\",\"end\":\"12:00\"}],\"slotMinutes\":30}", "{\"timezone\":\"Europe/Paris\",\"weekly\":[],\"slotMinutes\":25}",
                        "{\"timezone\":\"Europe/Paris\",\"weekly\":[{\"weekday\":1,\"start\":\"9:00\",\"end\":\"12:00\"}],\"slotMinutes\":30}")),
                Map.entry("post /ops/v1/appointments/{id}/reschedule", List.of("{\"durationMinutes\":30}", "{\"startTime\":\"2030-01-07T08:00:00Z\",\"durationMinutes\":481}")),
                Map.entry("post /ops/v1/appointments/{id}/cancel", List.of("{\"cancelledBy\":\"support\"}", "{\"reason\":\"x\"}")),
                Map.entry("post /ops/v1/appointments/{id}/outcome", List.of("{\"outcome\":\"maybe\"}")),
                Map.entry("post /ops/v1/bookings/{token}/appointment/cancel", List.of("{\"reason\":\"\"}")));
        JsonNode tree = OPERATIONS.tree();
        for (Map<String, List<String>> bodies : List.of(valid, refused)) {
            for (Map.Entry<String, List<String>> operation : bodies.entrySet()) {
                String method = operation.getKey().substring(0, operation.getKey().indexOf(' '));
                String path = operation.getKey().substring(method.length() + 1);
                JsonNode schema = followed(tree, tree.path("paths").path(path).path(method).path("requestBody"))
                        .at("/content/application~1json/schema");
                assertFalse(schema.isMissingNode(), operation.getKey());
                for (String body : operation.getValue()) {
                    Set<ValidationMessage> errors = schema(tree, schema).validate(json.readTree(body));
                    assertEquals(bodies == valid, errors.isEmpty(), operation.getKey() + " " + body + " " + errors);
                }
            }
        }
    }

    private static boolean describesFields(JsonNode tree, JsonNode schema) {
        JsonNode resolved = followed(tree, schema);
        if (resolved.path("properties").size() > 0) {
            return true;
        }
        for (String composition : List.of("oneOf", "anyOf", "allOf")) {
            JsonNode parts = resolved.path(composition);
            if (parts.size() > 0) {
                boolean all = true;
                for (JsonNode part : parts) {
                    all &= describesFields(tree, part) || followed(tree, part).path("type").asText().equals("null");
                }
                return all;
            }
        }
        return false;
    }

    /** A node with its local {@code $ref}s followed; missing when one does not resolve. */
    private static JsonNode followed(JsonNode tree, JsonNode node) {
        JsonNode at = node;
        for (int hops = 0; at.has("$ref") && hops < 10; hops++) {
            at = tree.at(at.path("$ref").asText().substring(1));
        }
        return at;
    }

    @Test
    void theErrorStringsOfTheContractAreExamples() {
        String json = new String(PARTNER.json(), StandardCharsets.UTF_8);
        for (String error : List.of("API Key missing", "Invalid API Key", "Member not found", "Request not found",
                "Invalid drugId - drug not found: <drugId>", "Invalid dosage for <drugId>. Available dosages: <labels>",
                "Invalid requestedSkuId for <drugId>: <requestedSkuId>", "v2SurveyResponseId not found",
                "v2SurveyResponseId does not belong to this partner", "Partner does not have access to drug: <drugId>",
                "Only pending requests can be deleted. This request has already been processed.",
                "Request has no line items (legacy single-drug request not supported here)",
                "Cannot send to pharmacy: item status is '<status>', expected 'approved'",
                "This item has already been sent to pharmacy", "Line item not found", "Billing not enabled for this partner",
                "Cannot delete member with existing requests. Consider updating the member instead.", "Required",
                "memberId is required", "Member does not belong to this partner", "no_prescriber_assigned",
                "Prescriber not found", "memberId query parameter is required", "Conversation does not belong to this partner",
                "Conversation not found", "Message text is required", "Message too long", "No file uploaded",
                "File type <mime> not allowed", "Internal Server Error", "Invalid publishable key", "Origin not allowed",
                "Invalid survey token", "Too Many Requests", "Unknown cursor", "Event not found", "No webhook URL configured")) {
            assertTrue(json.contains("\"error\" : \"" + error.replace("\"", "\\\"") + "\""), "no example of " + error);
        }
    }

    @Test
    void everyWebhookEventTheServicesEmitIsDocumented() throws IOException {
        Set<String> emitted = new TreeSet<>();
        // Each feature's own *Events (docs/architecture.md, "Service shape"): request, appointment, fulfilment, survey, messaging.
        emitted.addAll(eventNames("requests-service"));
        emitted.addAll(eventNames("messaging-service"));
        assertEquals(22, emitted.size(), emitted.toString());
        // webhook-service's own, sent when the partner asks (POST /v1/webhooks/test; partner-extensions.md, Events).
        emitted.add("webhook.test");
        Set<String> documented = new TreeSet<>();
        PARTNER.tree().path("webhooks").fieldNames().forEachRemaining(documented::add);
        assertEquals(emitted, documented);
    }

    @Test
    void everyWebhookIsAPostWithItsPayloadAndTheSignatureHeaders() {
        PARTNER.tree().path("webhooks").fields().forEachRemaining(webhook -> {
            JsonNode post = webhook.getValue().path("post");
            String ref = post.at("/requestBody/content/application~1json/schema/$ref").asText();
            JsonNode schema = PARTNER.tree().at(ref.substring(1));
            assertFalse(schema.isMissingNode(), webhook.getKey());
            assertTrue(post.path("requestBody").path("required").asBoolean(), webhook.getKey());
            List<String> headers = new ArrayList<>();
            post.path("parameters").forEach(parameter -> {
                assertEquals("header", parameter.path("in").asText());
                assertTrue(parameter.path("required").asBoolean());
                headers.add(parameter.path("name").asText());
            });
            assertEquals(List.of("X-Webhook-Timestamp", "X-Webhook-Signature", "X-Webhook-Id", "User-Agent"), headers, webhook.getKey());
            assertTrue(post.path("description").asText().contains("HMAC-SHA256 over the string `<timestamp>.<raw body>`"));
            // decisions.md, Webhooks: X-Webhook-Id is the deduplication key, stable across attempts and redelivery.
            JsonNode id = post.path("parameters").get(2);
            assertEquals("uuid", id.at("/schema/format").asText(), webhook.getKey());
            assertTrue(id.path("description").asText().startsWith("The deduplication key: one id per event, the same on every attempt"
                    + " and on every redelivery of that event"), webhook.getKey());
            assertTrue(post.path("description").asText().contains("deduplicate on `X-Webhook-Id`"), webhook.getKey());
        });
    }

    /**
     * Every example of a response body is valid against that response's schema (JSON Schema
     * 2020-12, the documents' dialect, references into {@code #/components}): the exact error
     * strings shown are bodies the schemas accept.
     */
    @Test
    void everyResponseExampleIsValidAgainstItsSchema() {
        for (OpenApiDocuments.Document document : List.of(PARTNER, OPERATIONS)) {
            List<String> invalid = new ArrayList<>();
            int[] checked = {0};
            document.tree().path("paths").fields().forEachRemaining(path -> path.getValue().fields().forEachRemaining(operation ->
                    operation.getValue().path("responses").fields().forEachRemaining(response -> {
                        JsonNode resolved = resolve(document.tree(), response.getValue());
                        resolved.path("content").fields().forEachRemaining(content -> {
                            JsonNode schema = content.getValue().path("schema");
                            content.getValue().path("examples").fields().forEachRemaining(example -> {
                                JsonNode value = resolve(document.tree(), example.getValue()).path("value");
                                Set<ValidationMessage> errors = schema(document.tree(), schema).validate(value);
                                checked[0]++;
                                if (!errors.isEmpty()) {
                                    invalid.add(operation.getKey() + " " + path.getKey() + " " + response.getKey() + " "
                                            + example.getKey() + ": " + errors);
                                }
                            });
                        });
                    })));
            assertEquals(List.of(), invalid);
            assertTrue(checked[0] > 50, "examples checked: " + checked[0]);
        }
    }

    /** A schema of the document as a standalone 2020-12 schema: the document's components beside it. */
    static JsonSchema schema(JsonNode document, JsonNode schema) {
        ObjectNode standalone = JsonNodeFactory.instance.objectNode();
        standalone.put("$schema", "https://json-schema.org/draft/2020-12/schema");
        standalone.set("components", document.path("components"));
        standalone.putArray("allOf").add(schema);
        return JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(standalone);
    }

    private static JsonNode resolve(JsonNode document, JsonNode node) {
        return node.has("$ref") ? document.at(node.get("$ref").asText().substring(1)) : node;
    }

    private static void assertRoutedAsDocumented(OpenApiDocuments.Document document, Set<Surface> surfaces) {
        document.tree().path("paths").fields().forEachRemaining(path -> {
            Optional<Routes.Route> route = Routes.resolve(OpenApiDocuments.sample(path.getKey()));
            assertTrue(route.isPresent(), "not routed: " + path.getKey());
            assertTrue(surfaces.contains(route.get().surface()), path.getKey() + " is on " + route.get().surface());
            path.getValue().fields().forEachRemaining(operation -> {
                if (!METHODS.contains(operation.getKey()) || operation.getKey().equals("options")) {
                    return;
                }
                String key = operation.getKey() + " " + path.getKey();
                assertEquals(OWNER.get(key), route.get().upstream(), key + " is generated from another module than it is routed to");
            });
        });
    }

    private static boolean hasSuccess(JsonNode responses) {
        List<String> statuses = new ArrayList<>();
        responses.fieldNames().forEachRemaining(statuses::add);
        return statuses.stream().anyMatch(status -> status.startsWith("2"));
    }

    private static Set<String> paths(OpenApiDocuments.Document document) {
        Set<String> paths = new TreeSet<>();
        document.tree().path("paths").fieldNames().forEachRemaining(paths::add);
        return paths;
    }

    /** The event names a service declares ({@code public static final String X = "family.kind";}, not its topic). */
    /** The event names every {@code *Events} class of the module declares (its public constants but the topic's). */
    private static Set<String> eventNames(String module) throws IOException {
        Path root = Path.of("..", module, "src", "main", "java");
        List<Path> sources;
        try (Stream<Path> files = Files.walk(root)) {
            sources = files.filter(candidate -> candidate.getFileName().toString().endsWith("Events.java")).toList();
        }
        Set<String> names = new TreeSet<>();
        for (Path source : sources) {
            Matcher constants = Pattern.compile("public static final String (?!TOPIC)[A-Z_]+ = \"([a-z_]+\\.[a-z_]+)\";")
                    .matcher(Files.readString(source));
            while (constants.find()) {
                names.add(constants.group(1));
            }
        }
        return names;
    }

    private static List<String> collectRefs(JsonNode node, List<String> refs) {
        if (node.isObject()) {
            node.fields().forEachRemaining(field -> {
                if (field.getKey().equals("$ref")) {
                    refs.add(field.getValue().asText());
                } else {
                    collectRefs(field.getValue(), refs);
                }
            });
        } else if (node.isArray()) {
            node.forEach(element -> collectRefs(element, refs));
        }
        return refs;
    }

    static SwaggerParseResult parse(String contents) {
        ParseOptions options = new ParseOptions();
        options.setResolve(true);
        return new OpenAPIV3Parser().readContents(contents, null, options);
    }
}
