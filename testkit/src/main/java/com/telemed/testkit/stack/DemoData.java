package com.telemed.testkit.stack;

import com.telemed.testkit.infra.AtomicFiles;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/**
 * The demo data ./stack creates, through the gateway's operator API as a back office would:
 * one sandbox partner (its keys kept in {@code .stack/demo.properties}, since they are shown
 * only once), a small catalogue, one prescriber. Idempotent: what exists is reused.
 */
public final class DemoData {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private static final List<Map<String, Object>> DRUGS = List.of(
            drug("semaglutide", "Semaglutide", "GLP-1 receptor agonist injection for weight management.",
                    List.of(sku("0.25 mg weekly", 0.5, 0.5), sku("0.5 mg weekly", 0.5, 1.0), sku("1 mg weekly", 0.5, 2.0))),
            drug("tirzepatide", "Tirzepatide", "GIP and GLP-1 receptor agonist injection.",
                    List.of(sku("2.5 mg weekly", 0.5, 5.0), sku("5 mg weekly", 0.5, 10.0))),
            drug("finasteride", "Finasteride", "Daily tablet for male pattern hair loss.",
                    List.of(Map.of("label", "1 mg tablet", "packageSize", 30, "active", true))),
            drug("sildenafil", "Sildenafil", "Tablet for erectile dysfunction.",
                    List.of(Map.of("label", "20 mg tablet", "packageSize", 30, "active", true),
                            Map.of("label", "50 mg tablet", "packageSize", 10, "active", false))));

    private final URI gateway;
    private final String opsKey;

    private DemoData(URI gateway, String opsKey) {
        this.gateway = gateway;
        this.opsKey = opsKey;
    }

    /** Creates what is missing and returns the lines ./stack prints about it. */
    public static String seed(URI gateway, String opsKey, Path keptIn) {
        Properties kept = load(keptIn);
        DemoData demo = new DemoData(gateway, opsKey);
        demo.ensurePartner(kept);
        List<String> drugs = demo.ensureCatalogue();
        demo.ensurePrescriber(kept);
        store(kept, keptIn);
        return "Demo partner: " + kept.getProperty("partnerId") + " (sandbox)\n"
                + "  API key:         " + kept.getProperty("apiKey") + "   (header x-api-key)\n"
                + "  Publishable key: " + kept.getProperty("publishableKey") + "\n"
                + "Demo prescriber: " + kept.getProperty("prescriberId") + "\n"
                + "Catalogue:       " + String.join(", ", drugs) + "\n";
    }

    private void ensurePartner(Properties kept) {
        String id = kept.getProperty("partnerId");
        if (id != null && call("GET", "/ops/v1/partners/" + id, null).statusCode() == 200) {
            if (!apiKeyWorks(kept.getProperty("apiKey"))) {
                // Rotated since (the walkthrough does it): take a fresh key rather than a new partner.
                JsonNode rotated = expect(call("POST", "/ops/v1/partners/" + id + "/api-key/rotate", null), 200);
                kept.setProperty("apiKey", rotated.path("apiKey").asText());
            }
            return;
        }
        JsonNode created = expect(call("POST", "/ops/v1/partners", Map.of("name", "Demo Health (sandbox)")), 201);
        kept.setProperty("partnerId", created.path("partner").path("id").asText());
        kept.setProperty("apiKey", created.path("apiKey").asText());
        kept.setProperty("publishableKey", created.path("publishableKey").asText());
    }

    private boolean apiKeyWorks(String apiKey) {
        try {
            HttpRequest request = HttpRequest.newBuilder(gateway.resolve("/v1/drugs")).timeout(Duration.ofSeconds(15))
                    .header("x-api-key", apiKey == null ? "" : apiKey).GET().build();
            return HTTP.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() != 401;
        } catch (IOException e) {
            throw new UncheckedIOException("demo data: cannot check the demo API key", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private List<String> ensureCatalogue() {
        JsonNode listed = expect(call("GET", "/ops/v1/drugs", null), 200);
        Set<String> present = new HashSet<>();
        listed.path("drugs").forEach(drug -> present.add(drug.path("id").asText()));
        for (Map<String, Object> drug : DRUGS) {
            String id = (String) drug.get("id");
            if (!present.contains(id)) {
                Map<String, Object> body = new java.util.HashMap<>(drug);
                body.remove("id");
                expect(call("PUT", "/ops/v1/drugs/" + id, body), 200);
            }
        }
        return DRUGS.stream().map(drug -> (String) drug.get("id")).toList();
    }

    private void ensurePrescriber(Properties kept) {
        String id = kept.getProperty("prescriberId", "");
        if (id.matches("[0-9a-f-]{36}") && call("GET", "/ops/v1/prescribers/" + id, null).statusCode() == 200) {
            return;
        }
        HttpResponse<String> created = call("POST", "/ops/v1/prescribers",
                Map.of("name", "Dr. Maya Chen", "email", "maya.chen@demo-clinic.example"));
        // 400: the prescriber exists but this file lost its id (no list endpoint to find it again).
        kept.setProperty("prescriberId", created.statusCode() == 400
                ? "(exists; id not kept)" : expect(created, 201).path("prescriber").path("id").asText());
    }

    private HttpResponse<String> call(String method, String path, Object body) {
        try {
            HttpRequest.Builder request = HttpRequest.newBuilder(gateway.resolve(path))
                    .timeout(Duration.ofSeconds(15))
                    .header("x-ops-key", opsKey);
            if (body == null) {
                request.method(method, HttpRequest.BodyPublishers.noBody());
            } else {
                request.header("Content-Type", "application/json")
                        .method(method, HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
            }
            return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException("demo data: " + method + " " + path + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static JsonNode expect(HttpResponse<String> response, int status) {
        if (response.statusCode() != status) {
            throw new IllegalStateException("demo data: " + response.request().method() + " " + response.request().uri()
                    + " answered " + response.statusCode() + " " + response.body());
        }
        try {
            return JSON.readTree(response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Map<String, Object> drug(String id, String name, String description, List<Map<String, Object>> skus) {
        return Map.of("id", id, "name", name, "description", description, "classification", "non-controlled",
                "skus", skus, "pharmacy", Map.of("id", "sandbox-pharmacy", "method", "integration_a"));
    }

    /** An injectable pen: {@code volume} mL per pen at {@code mgPerMl}. */
    private static Map<String, Object> sku(String label, double volume, double mgPerMl) {
        return Map.of("label", label, "packageSize", volume, "active", true,
                "concentration", Map.of("value", mgPerMl, "activeUnit", "mg", "baseUnit", "mL"));
    }

    private static Properties load(Path file) {
        Properties properties = new Properties();
        if (Files.exists(file)) {
            try (var in = Files.newBufferedReader(file)) {
                properties.load(in);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return properties;
    }

    private static void store(Properties properties, Path file) {
        var out = new java.io.StringWriter();
        try {
            properties.store(out, "Demo credentials of the local stack (shown once by the platform, kept here for you)");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        AtomicFiles.write(file, out.toString(), true);
    }
}
