package com.telemed.testkit.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.smallrye.openapi.api.SmallRyeOpenAPI;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.jboss.jandex.Index;
import org.jboss.jandex.Indexer;

/**
 * Generates a service's part of the platform's OpenAPI description from its code: SmallRye
 * OpenAPI's scanner reads the module's compiled JAX-RS resources and their MicroProfile OpenAPI
 * annotations ({@code @Operation}, {@code @Parameter}, {@code @RequestBody}, {@code @APIResponse}
 * with references to the hand-written components) and gives the {@code paths} of every operation
 * on the partner and operator surfaces ({@code /v1}, {@code /v2}, {@code /attachments},
 * {@code /ops}; never {@code /internal} or {@code /q}), without the headers the platform sets
 * between its own services.
 * <p>
 * The result is committed as {@code gateway/src/main/resources/openapi/generated/<module>.yaml},
 * which the gateway merges with the hand-written components and webhooks into the documents it
 * serves: the gateway cannot read the services' classes at run time, and a build that generated
 * them in place would make the gateway wait for every service. Each module's
 * {@code ApiDescriptionTest} regenerates its file and fails when the committed one differs, so the
 * served description cannot drift from the code; {@code -Dopenapi.write=true} rewrites the file.
 */
public final class ApiPaths {

    /** Where the generated files are committed, from a module's directory (Maven's working directory for tests). */
    public static final Path GENERATED = Path.of("..", "gateway", "src", "main", "resources", "openapi", "generated");
    public static final String WRITE_PROPERTY = "openapi.write";

    private static final List<String> SURFACES = List.of("/v1/", "/v2/", "/attachments/", "/ops/");
    /** Headers the platform sets between services, never a client's. */
    private static final Set<String> INTERNAL_HEADERS = Set.of("x-partner-id", "x-request-id", "x-service-proof",
            "x-service-timestamp", "x-service-name", "x-principal");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectMapper YAML_IN = new YAMLMapper();
    private static final ObjectMapper YAML_OUT = new ObjectMapper(YAMLFactory.builder()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            .enable(YAMLGenerator.Feature.LITERAL_BLOCK_STYLE)
            .build());

    private ApiPaths() {
    }

    /**
     * Compares the committed file of {@code module} with what its compiled classes
     * ({@code target/classes}) generate; empty when they are the same. With
     * {@code -Dopenapi.write=true} the file is written first.
     */
    public static List<String> check(String module) {
        ObjectNode generated = generatedHere();
        Path file = GENERATED.resolve(module + ".yaml");
        if (Boolean.getBoolean(WRITE_PROPERTY)) {
            write(file, module, generated);
        }
        List<String> differences = new ArrayList<>();
        if (!Files.exists(file)) {
            differences.add(file + " is missing" + howToRegenerate(module));
            return differences;
        }
        JsonNode committed = read(file);
        Set<String> operations = new TreeSet<>();
        operations.addAll(operations(generated).keySet());
        operations.addAll(operations(committed).keySet());
        Map<String, JsonNode> fromCode = operations(generated);
        Map<String, JsonNode> fromFile = operations(committed);
        for (String operation : operations) {
            JsonNode code = fromCode.get(operation);
            JsonNode written = fromFile.get(operation);
            if (code == null) {
                differences.add(operation + ": in " + file.getFileName() + ", not in the code");
            } else if (written == null) {
                differences.add(operation + ": in the code, not in " + file.getFileName());
            } else if (!code.equals(written)) {
                differences.add(operation + ": the annotations say " + code + ", " + file.getFileName() + " says " + written);
            }
        }
        if (!differences.isEmpty()) {
            differences.add(howToRegenerate(module));
        }
        fromCode.forEach((operation, described) -> {
            if (!described.hasNonNull("operationId") || !described.has("tags")) {
                differences.add(operation + ": no @Operation(operationId = ...) and @Tag on its method: every operation is described");
            }
        });
        return differences;
    }

    /**
     * The build test of issue #40 (docs/security.md, "Each service decides what the principal may do"):
     * every {@code /ops} operation of this module's compiled classes ({@code "POST /ops/v1/requests/{id}/claim"},
     * as SmallRye OpenAPI reads the resources) that {@code table} (platform-commons'
     * {@code access.OpsAccess.operations()}) does not list, each named; empty when every one has its row.
     * A resource method without a row is refused to everyone (403), so this catches it before anyone calls it.
     */
    public static List<String> opsOperationsMissingFrom(java.util.Collection<String> table) {
        return operations(generatedHere()).keySet().stream()
                .filter(operation -> operation.substring(operation.indexOf(' ') + 1).startsWith("/ops/"))
                .filter(operation -> !table.contains(operation))
                .map(operation -> operation + ": not in platform-commons' access.OpsAccess (give it the roles that may call it)")
                .toList();
    }

    /** This module's {@code /ops} operations ({@code "METHOD template"}), as its compiled resources declare them, sorted. */
    public static List<String> opsOperationsHere() {
        return operations(generatedHere()).keySet().stream()
                .filter(operation -> operation.substring(operation.indexOf(' ') + 1).startsWith("/ops/"))
                .sorted().toList();
    }

    /** The line before the README's generated table of who may call what. */
    public static final String ACCESS_BEGIN = "<!-- who may call what: generated from platform-commons' access.OpsAccess by"
            + " ApiDescriptionTest (-Dopenapi.write=true rewrites it) -->";
    /** The line after it. */
    public static final String ACCESS_END = "<!-- end of who may call what -->";

    /**
     * Compares the table between {@link #ACCESS_BEGIN} and {@link #ACCESS_END} in this module's
     * README.md with {@code expected} (platform-commons' {@code OpsAccess.markdown} of
     * {@link #opsOperationsHere}); empty when equal. With {@code -Dopenapi.write=true} the table is
     * written first (the markers must be there).
     */
    public static List<String> checkAccessTable(String expected) {
        Path readme = Path.of("README.md");
        String text;
        try {
            text = Files.readString(readme);
        } catch (IOException e) {
            return List.of("README.md cannot be read: " + e.getMessage());
        }
        int begin = text.indexOf(ACCESS_BEGIN);
        int end = text.indexOf(ACCESS_END);
        if (begin < 0 || end < begin) {
            return List.of("README.md has no table of who may call what: add the lines " + ACCESS_BEGIN + " and " + ACCESS_END
                    + " where it goes, then " + howToRegenerate("<module>"));
        }
        String committed = text.substring(begin + ACCESS_BEGIN.length(), end).strip();
        if (committed.equals(expected.strip())) {
            return List.of();
        }
        if (Boolean.getBoolean(WRITE_PROPERTY)) {
            String rewritten = text.substring(0, begin + ACCESS_BEGIN.length()) + "\n" + expected.strip() + "\n" + text.substring(end);
            try {
                Files.writeString(readme, rewritten);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return List.of();
        }
        return List.of("README.md's table of who may call what is not what access.OpsAccess says; it should be:\n" + expected
                + howToRegenerate("<module>"));
    }

    private static ObjectNode generatedHere;

    /** This module's paths ({@code target/classes}), generated once per test JVM. */
    private static synchronized ObjectNode generatedHere() {
        if (generatedHere == null) {
            generatedHere = generate(Path.of("target", "classes"));
        }
        return generatedHere.deepCopy();
    }

    private static String howToRegenerate(String module) {
        return "(after changing the annotations: ./mvnw test -pl " + module + " -am -Dtest=ApiDescriptionTest"
                + " -Dsurefire.failIfNoSpecifiedTests=false -D" + WRITE_PROPERTY + "=true)";
    }

    /** The {@code paths} object the classes under {@code classes} describe, paths in order. */
    public static ObjectNode generate(Path classes) {
        String json = SmallRyeOpenAPI.builder()
                .withIndex(index(classes))
                .enableModelReader(false)
                .enableStandardStaticFiles(false)
                .enableStandardFilter(false)
                .withConfig(new io.smallrye.config.SmallRyeConfigBuilder().build())
                .build()
                .toJSON();
        JsonNode document;
        try {
            document = JSON.readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ObjectNode paths = JsonNodeFactory.instance.objectNode();
        Map<String, JsonNode> sorted = new TreeMap<>();
        document.path("paths").fields().forEachRemaining(entry -> sorted.put(entry.getKey(), entry.getValue()));
        sorted.forEach((path, item) -> {
            if (SURFACES.stream().anyMatch(path::startsWith)) {
                ObjectNode copy = item.deepCopy();
                referencesAlone(copy);
                withoutInternalHeaders(copy);
                copy.fields().forEachRemaining(operation -> {
                    if (operation.getValue().isObject()) {
                        withoutInternalHeaders((ObjectNode) operation.getValue());
                    }
                });
                paths.set(path, copy);
            }
        });
        return paths;
    }

    /** {@code "GET /v1/requests/{id}"} to its operation, from a {@code paths} object. */
    public static Map<String, JsonNode> operations(JsonNode paths) {
        Map<String, JsonNode> operations = new TreeMap<>();
        paths.fields().forEachRemaining(path -> path.getValue().fields().forEachRemaining(operation -> {
            if (!operation.getKey().equals("parameters") && operation.getValue().isObject()) {
                ObjectNode withPathParameters = operation.getValue().deepCopy();
                if (path.getValue().has("parameters")) {
                    withPathParameters.set("x-path-parameters", path.getValue().get("parameters"));
                }
                operations.put(operation.getKey().toUpperCase(Locale.ROOT) + " " + path.getKey(), withPathParameters);
            }
        }));
        return operations;
    }

    /**
     * A reference stands alone: SmallRye adds a default {@code description: OK} beside an
     * {@code @APIResponse(ref = ...)} and the form parameters' own schema beside a request body's
     * {@code @Schema(ref = ...)}; as siblings of {@code $ref} they would override the referenced
     * component, which the annotations never mean.
     */
    private static void referencesAlone(JsonNode node) {
        if (node instanceof ObjectNode object) {
            if (object.has("$ref")) {
                object.retain("$ref");
                return;
            }
            object.forEach(ApiPaths::referencesAlone);
        } else if (node instanceof ArrayNode array) {
            array.forEach(ApiPaths::referencesAlone);
        }
    }

    private static void withoutInternalHeaders(ObjectNode holder) {
        if (!(holder.get("parameters") instanceof ArrayNode parameters)) {
            return;
        }
        for (Iterator<JsonNode> it = parameters.iterator(); it.hasNext(); ) {
            JsonNode parameter = it.next();
            if (parameter.path("in").asText().equals("header")
                    && INTERNAL_HEADERS.contains(parameter.path("name").asText().toLowerCase(Locale.ROOT))) {
                it.remove();
            }
        }
        if (parameters.isEmpty()) {
            holder.remove("parameters");
        }
    }

    private static JsonNode read(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            JsonNode tree = YAML_IN.readTree(in);
            return tree.path("paths");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void write(Path file, String module, ObjectNode paths) {
        ObjectNode document = JsonNodeFactory.instance.objectNode();
        document.set("paths", paths);
        try {
            Files.createDirectories(file.getParent());
            String header = "# Generated from " + module + "'s MicroProfile OpenAPI annotations by ApiPaths (testkit): do not edit.\n"
                    + "# Change the annotations, then: ./mvnw test -pl " + module + " -am -Dtest=ApiDescriptionTest"
                    + " -Dsurefire.failIfNoSpecifiedTests=false -D" + WRITE_PROPERTY + "=true\n"
                    + "# The gateway merges it into the served documents (OpenApiDocuments).\n";
            Files.writeString(file, header + YAML_OUT.writeValueAsString(document), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Index index(Path classes) {
        Indexer indexer = new Indexer();
        try (Stream<Path> files = Files.walk(classes)) {
            for (Path file : files.filter(candidate -> candidate.toString().endsWith(".class")).toList()) {
                try (InputStream in = Files.newInputStream(file)) {
                    indexer.index(in);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return indexer.complete();
    }
}
