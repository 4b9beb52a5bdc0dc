package com.telemed.requests.pharmacy;

import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.URI;
import java.net.http.HttpClient;
import java.util.Map;
import java.util.Optional;

/**
 * Chooses the adapter of an order from the drug's {@code pharmacy.method} (operations-api.md,
 * "Pharmacy integration"): {@code none} (or a drug without a pharmacy) has none; in a sandbox
 * deployment every other method goes to the {@link SandboxPharmacy}; in production each goes to
 * its configured HTTP endpoint, or is not configured.
 */
@ApplicationScoped
public class Pharmacies {

    public static final String NONE = "none";
    public static final String SANDBOX = "sandbox";

    /** Where an order goes. */
    public sealed interface Route {
    }

    /** The drug has no pharmacy ({@code method: none}). */
    public record NoPharmacy() implements Route {
    }

    /** A method this deployment has no endpoint for. */
    public record NotConfigured(String method) implements Route {
    }

    public record Through(PharmacyAdapter adapter) implements Route {
    }

    private final boolean sandbox;
    private final PharmacyAdapter sandboxPharmacy = new SandboxPharmacy();
    private final Map<String, PharmacyAdapter> endpoints;

    public Pharmacies(PharmacyConfig config, ObjectMapper json) {
        this.sandbox = config.sandbox();
        HttpClient client = HttpClient.newBuilder().connectTimeout(config.timeout()).build();
        Map<String, Optional<String>> urls = Map.of(
                "integration_a", config.integrationAUrl(),
                "integration_b", config.integrationBUrl(),
                "email", config.emailUrl());
        this.endpoints = urls.entrySet().stream().filter(entry -> entry.getValue().isPresent())
                .collect(java.util.stream.Collectors.toUnmodifiableMap(Map.Entry::getKey,
                        entry -> new HttpPharmacy(URI.create(entry.getValue().get()), config.timeout(), client, json)));
    }

    public Route route(String method) {
        if (method == null || NONE.equals(method)) {
            return new NoPharmacy();
        }
        if (sandbox) {
            return new Through(sandboxPharmacy);
        }
        PharmacyAdapter adapter = endpoints.get(method);
        return adapter == null ? new NotConfigured(method) : new Through(adapter);
    }

    /** The method an answer names: the drug's own, {@code none} without one (also in a sandbox deployment). */
    public static String methodOf(String method) {
        return method == null ? NONE : method;
    }
}
