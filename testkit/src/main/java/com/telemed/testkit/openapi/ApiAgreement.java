package com.telemed.testkit.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.smallrye.openapi.api.SmallRyeOpenAPI;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.PathItem;
import org.eclipse.microprofile.openapi.models.parameters.Parameter;
import org.jboss.jandex.Index;
import org.jboss.jandex.Indexer;

/**
 * Keeps the gateway's hand-written OpenAPI documents ({@code gateway/src/main/resources/openapi/})
 * true to a service's code: SmallRye OpenAPI's scanner describes the service's JAX-RS resources
 * (its compiled classes, no running application), and every operation it finds on the partner or
 * operator surface ({@code /v1}, {@code /v2}, {@code /attachments}, {@code /ops}; never
 * {@code /internal} or {@code /q}) must be in the document with the same method and path template,
 * with every query and header parameter the code declares, and the document may describe no
 * operation of the service's tags that the code does not have. A resource added, removed, moved
 * or given a parameter without the document following fails the service's build.
 */
public final class ApiAgreement {

    public static final String PARTNER = "partner.yaml";
    public static final String OPERATIONS = "operations.yaml";

    private static final List<String> SURFACES = List.of("/v1/", "/v2/", "/attachments/", "/ops/");
    /** Headers the platform sets between services, never a client's. */
    private static final Set<String> INTERNAL_HEADERS = Set.of("x-partner-id", "x-request-id", "x-service-proof",
            "x-service-timestamp", "x-service-name");
    private static final List<String> METHODS = List.of("get", "put", "post", "delete", "head", "patch");

    private ApiAgreement() {
    }

    /**
     * The differences between this module's resources and the gateway's document for the tags the
     * service owns; empty when they agree. {@code operations.yaml} is compared with the code's
     * {@code /ops} operations, {@code partner.yaml} with the others. Run from the module's
     * directory (Maven's default).
     */
    public static List<String> differences(String document, Set<String> ownedTags) {
        boolean operator = document.equals(OPERATIONS);
        Map<String, Set<String>> code = new TreeMap<>();
        fromCode(Path.of("target", "classes")).forEach((operation, parameters) -> {
            if (operation.contains(" /ops/") == operator) {
                code.put(operation, parameters);
            }
        });
        Map<String, Set<String>> documented = fromDocument(Path.of("..", "gateway", "src", "main", "resources", "openapi", document),
                ownedTags);
        List<String> differences = new ArrayList<>();
        if (code.isEmpty() && documented.isEmpty()) {
            differences.add("neither target/classes nor " + document + " has an operation of " + ownedTags);
        }
        code.forEach((operation, parameters) -> {
            Set<String> described = documented.get(operation);
            if (described == null) {
                differences.add(operation + ": in the code, not in " + document);
                return;
            }
            for (String parameter : parameters) {
                if (!described.contains(parameter)) {
                    differences.add(operation + ": parameter " + parameter + " in the code, not in " + document);
                }
            }
        });
        documented.keySet().stream().filter(operation -> !code.containsKey(operation))
                .forEach(operation -> differences.add(operation + ": in " + document + ", not in the code"));
        return differences;
    }

    /** {@code "GET /v1/requests/{id}"} to its query and header parameters, as SmallRye reads the classes. */
    public static Map<String, Set<String>> fromCode(Path classes) {
        OpenAPI model = SmallRyeOpenAPI.builder()
                .withIndex(index(classes))
                .enableModelReader(false)
                .enableStandardStaticFiles(false)
                .enableStandardFilter(false)
                .withConfig(new io.smallrye.config.SmallRyeConfigBuilder().build())
                .build()
                .model();
        Map<String, Set<String>> operations = new TreeMap<>();
        if (model.getPaths() == null || model.getPaths().getPathItems() == null) {
            return operations;
        }
        model.getPaths().getPathItems().forEach((path, item) -> {
            if (SURFACES.stream().noneMatch(path::startsWith)) {
                return;
            }
            item.getOperations().forEach((method, operation) -> operations.put(
                    method.name() + " " + path, codeParameters(item, operation)));
        });
        return operations;
    }

    private static Set<String> codeParameters(PathItem item, Operation operation) {
        Set<String> names = new TreeSet<>();
        List<Parameter> parameters = new ArrayList<>();
        if (item.getParameters() != null) {
            parameters.addAll(item.getParameters());
        }
        if (operation.getParameters() != null) {
            parameters.addAll(operation.getParameters());
        }
        for (Parameter parameter : parameters) {
            if (parameter.getIn() == Parameter.In.QUERY) {
                names.add("query " + parameter.getName());
            } else if (parameter.getIn() == Parameter.In.HEADER
                    && !INTERNAL_HEADERS.contains(parameter.getName().toLowerCase(Locale.ROOT))) {
                names.add("header " + parameter.getName().toLowerCase(Locale.ROOT));
            }
        }
        return names;
    }

    /** The same view of the gateway's hand-written document, for the operations of the given tags. */
    public static Map<String, Set<String>> fromDocument(Path source, Set<String> ownedTags) {
        JsonNode document;
        try (InputStream in = Files.newInputStream(source)) {
            document = new YAMLMapper().readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, Set<String>> operations = new TreeMap<>();
        document.path("paths").fields().forEachRemaining(path -> {
            for (String method : METHODS) {
                JsonNode operation = path.getValue().path(method);
                if (operation.isMissingNode() || !ownedTags.contains(operation.path("tags").path(0).asText())) {
                    continue;
                }
                Set<String> names = new TreeSet<>();
                List<JsonNode> parameters = new ArrayList<>();
                path.getValue().path("parameters").forEach(parameters::add);
                operation.path("parameters").forEach(parameters::add);
                for (JsonNode parameter : parameters) {
                    JsonNode resolved = parameter.has("$ref") ? document.at(parameter.get("$ref").asText().substring(1)) : parameter;
                    String in = resolved.path("in").asText();
                    if (in.equals("query")) {
                        names.add("query " + resolved.path("name").asText());
                    } else if (in.equals("header")) {
                        names.add("header " + resolved.path("name").asText().toLowerCase(Locale.ROOT));
                    }
                }
                operations.put(method.toUpperCase(Locale.ROOT) + " " + path.getKey(), names);
            }
        });
        return operations;
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
