package com.telemed.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.marcnuri.helm.Helm;
import com.marcnuri.helm.InstallCommand;
import com.marcnuri.helm.LintResult;
import com.marcnuri.helm.TemplateCommand;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The chart under test, {@code deploy/helm/telemed}, rendered and linted by Helm itself (helm-java
 * embeds Helm's Go library), always as release {@value #RELEASE} in namespace {@value #NAMESPACE}.
 */
final class Chart {

    static final String RELEASE = "telemed";
    static final String NAMESPACE = "care";
    static final Path DIR = Path.of("helm", "telemed").toAbsolutePath();
    static final Path VALUES = DIR.resolve("values.yaml");
    static final Path SANDBOX = DIR.resolve("values-sandbox.yaml");
    static final Path PRODUCTION = DIR.resolve("values-production.yaml");

    /** What values.yaml leaves empty on purpose (a service refuses to start without it), non-secret. */
    static final Map<String, String> REQUIRED_SETTINGS = ordered(
            "global.serviceEnvironment", "sandbox",
            "global.publicUrl", "https://api.care.example",
            "postgresql.host", "pg.care.example",
            "kafka.bootstrapServers", "kafka-0.care.example:9092",
            "smtp.host", "smtp.care.example");

    /** Every credential values.yaml leaves empty, each a value found nowhere else. */
    static final Map<String, String> SECRETS = secrets();

    private static final YAMLMapper YAML = new YAMLMapper();

    private Chart() {
    }

    private static Map<String, String> secrets() {
        Map<String, String> secrets = ordered(
                "secrets.trustKey.value", "trust-key-0123456789abcdef0123456789",
                "secrets.opsApiKey.value", "ops-key-f00dfeedcafe",
                "secrets.webhookSecretKeys.value", "k1:d2ViaG9vay1rZXktb2YtdGhpcnR5LXR3by1ieXRlcyE=",
                "secrets.attachmentLinkKey.value", "attachment-link-key-fedcba9876543210",
                "secrets.consoleSessionKey.value", "console-session-key-0a1b2c3d4e5f6a7b");
        for (Service service : Service.withDatabase()) {
            secrets.put("secrets.databases." + service.key() + ".username", "user-" + service.key());
            secrets.put("secrets.databases." + service.key() + ".password", "pw-" + service.key() + "-9a8b7c");
        }
        return secrets;
    }

    /** values.yaml with its required settings and credentials, plus {@code more}. */
    static Map<String, String> minimal(String... more) {
        Map<String, String> sets = new LinkedHashMap<>(REQUIRED_SETTINGS);
        sets.putAll(SECRETS);
        sets.putAll(ordered(more));
        return sets;
    }

    static Map<String, String> ordered(String... keysAndValues) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }

    /** {@code helm template} with the values files in order, then the {@code --set}s; parsed and checked. */
    static Manifests render(Map<String, String> sets, Path... valuesFiles) {
        return Manifests.parse(template(sets, valuesFiles).call());
    }

    /** The message Helm fails with (schema, {@code required}, {@code fail}). */
    static String renderFailure(Map<String, String> sets, Path... valuesFiles) {
        TemplateCommand command = template(sets, valuesFiles);
        try {
            String manifest = command.call();
            throw new AssertionError("helm template succeeded, expected a failure; rendered "
                    + manifest.length() + " characters");
        } catch (IllegalStateException e) {
            return e.getMessage();
        }
    }

    /**
     * The release notes (templates/NOTES.txt) as {@code helm install --dry-run} prints them, client
     * only: no cluster is contacted.
     */
    static String notes(Map<String, String> sets, Path... valuesFiles) {
        InstallCommand command = new Helm(DIR).install().withName(RELEASE).withNamespace(NAMESPACE).clientOnly().dryRun();
        for (Path file : valuesFiles) {
            command = command.withValuesFile(file);
        }
        for (Map.Entry<String, String> set : sets.entrySet()) {
            command = command.set(set.getKey(), set.getValue());
        }
        String output = command.call().getOutput();
        int notes = output.indexOf("NOTES:\n");
        if (notes < 0) {
            throw new AssertionError("no NOTES in the output of helm install --dry-run:\n" + output);
        }
        return output.substring(notes + "NOTES:\n".length());
    }

    private static TemplateCommand template(Map<String, String> sets, Path... valuesFiles) {
        TemplateCommand command = new Helm(DIR).template().withName(RELEASE).withNamespace(NAMESPACE);
        for (Path file : valuesFiles) {
            command = command.withValuesFile(file);
        }
        for (Map.Entry<String, String> set : sets.entrySet()) {
            command = command.set(set.getKey(), set.getValue());
        }
        return command;
    }

    /**
     * {@code helm lint --strict} as with {@code -f valuesFile --set ...}: helm-java's lint reads the
     * chart's own values.yaml only, so the chart is copied into {@code workDir} with values.yaml
     * replaced by values.yaml, the file and the settings merged as Helm merges them (maps key by
     * key, anything else replaced).
     */
    static LintResult lint(Path workDir, Path valuesFile, Map<String, String> sets) {
        Path copy = workDir.resolve("telemed");
        copyTree(DIR, copy);
        try {
            ObjectNode values = (ObjectNode) YAML.readTree(VALUES.toFile());
            if (!valuesFile.equals(VALUES)) {
                merge(values, YAML.readTree(valuesFile.toFile()));
            }
            sets.forEach((path, value) -> setPath(values, path, value));
            YAML.writeValue(copy.resolve("values.yaml").toFile(), values);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new Helm(copy).lint().strict().call();
    }

    private static void merge(ObjectNode base, JsonNode overlay) {
        for (Map.Entry<String, JsonNode> field : overlay.properties()) {
            JsonNode current = base.get(field.getKey());
            if (current instanceof ObjectNode currentObject && field.getValue().isObject()) {
                merge(currentObject, field.getValue());
            } else {
                base.set(field.getKey(), field.getValue());
            }
        }
    }

    private static void setPath(ObjectNode root, String dotted, String value) {
        String[] parts = dotted.split("\\.");
        ObjectNode node = root;
        for (int i = 0; i < parts.length - 1; i++) {
            node = node.has(parts[i]) ? (ObjectNode) node.get(parts[i]) : node.putObject(parts[i]);
        }
        node.set(parts[parts.length - 1], TextNode.valueOf(value));
    }

    private static void copyTree(Path from, Path to) {
        try (Stream<Path> paths = Files.walk(from)) {
            for (Path path : paths.toList()) {
                Path target = to.resolve(from.relativize(path).toString());
                if (Files.isDirectory(path)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(path, target);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The eight services: their key under {@code services.}, their module (resource names, images),
     * whether they have a database (all but web-service, the pages) and a Kafka client (all but the
     * gateway and web-service).
     */
    enum Service {
        GATEWAY("gateway", "gateway", true, false),
        REQUESTS("requests", "requests-service", true, true),
        MEMBERS("members", "members-service", true, true),
        CATALOGUE("catalogue", "catalogue-service", true, true),
        MESSAGING("messaging", "messaging-service", true, true),
        BILLING("billing", "billing-service", true, true),
        WEBHOOK("webhook", "webhook-service", true, true),
        WEB("web", "web-service", false, false);

        private final String key;
        private final String module;
        private final boolean database;
        private final boolean kafka;

        Service(String key, String module, boolean database, boolean kafka) {
            this.key = key;
            this.module = module;
            this.database = database;
            this.kafka = kafka;
        }

        boolean database() {
            return database;
        }

        boolean kafka() {
            return kafka;
        }

        String key() {
            return key;
        }

        String module() {
            return module;
        }

        /** The name of its Deployment, Service, ConfigMap, ServiceAccount, HPA, PDB and NetworkPolicy. */
        String resourceName() {
            return RELEASE + "-" + module;
        }

        static List<Service> all() {
            return List.of(values());
        }

        static List<Service> withDatabase() {
            return all().stream().filter(Service::database).toList();
        }
    }
}
