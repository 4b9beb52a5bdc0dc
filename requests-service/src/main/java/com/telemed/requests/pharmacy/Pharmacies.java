package com.telemed.requests.pharmacy;

import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Chooses the adapter of an order from the drug's {@code pharmacy.method} (operations-api.md,
 * "Pharmacy integration"): {@code none} (or a drug without a pharmacy) has none; in a sandbox
 * deployment every other method goes to the {@link SandboxPharmacy}; in production each goes to
 * its configured HTTP endpoint ({@link PharmacyEndpoint}: a URL and its signing secret), or is not
 * configured.
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

    public Pharmacies(PharmacyConfig config, ObjectMapper json, Clock clock) {
        this.sandbox = config.sandbox();
        HttpClient client = HttpClient.newBuilder().connectTimeout(config.timeout()).build();
        Map<String, PharmacyAdapter> configured = new HashMap<>();
        for (PharmacyEndpoint endpoint : PharmacyEndpoint.values()) {
            Optional<String> url = endpoint.url(config);
            Optional<String> secret = endpoint.secret(config);
            // Never an unsigned order: an endpoint without its secret is not configured (production
            // refuses to start so: fulfilment.FulfilmentProductionSettings).
            if (url.isPresent() && secret.isPresent()) {
                configured.put(endpoint.method(), new HttpPharmacy(URI.create(url.get()), new OrderSignature(secret.get()),
                        config.timeout(), config.maxAnswerBytes(), client, json, clock));
            }
        }
        this.endpoints = Map.copyOf(configured);
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
