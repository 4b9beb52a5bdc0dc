package com.telemed.common.config;

import static com.telemed.common.config.ProductionRequirement.required;
import static com.telemed.common.config.ProductionRequirement.secret;

import io.quarkus.arc.All;
import io.quarkus.runtime.LaunchMode;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.runtime.configuration.ConfigUtils;
import io.quarkus.runtime.configuration.ConfigurationException;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import jakarta.interceptor.Interceptor;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.microprofile.config.Config;

/**
 * Production fails closed: a service started as a deployment runs it ({@code java -jar
 * quarkus-run.jar}: launch mode NORMAL, profile {@code prod}, or any profile other than
 * {@code local}) refuses to start while a secret is missing or equals a value committed for
 * development, or a choice such as {@code SERVICE_ENVIRONMENT} is not exactly one of its values.
 * It exits non-zero with one line on standard error naming every setting at fault (Quarkus prints
 * a {@link ConfigurationException}'s message alone, without a stack trace).
 *
 * <p>Development values live only under the {@code dev}, {@code test} and {@code local} profiles;
 * {@code ./stack} and the end-to-end platform run the services with {@code QUARKUS_PROFILE=local}.
 *
 * <p>The check runs before Flyway's migrations ({@link CheckBeforeMigrations}), so it is the first
 * thing a refused start prints, before any connection to the database is attempted; and again,
 * first of all observers, on {@link StartupEvent} for a service that does not migrate at start
 * (it runs once).
 */
@Singleton
public class ProductionSettings {

    /** The profile ./stack and the end-to-end tests run packaged services in: development values, no check. */
    public static final String LOCAL_PROFILE = "local";

    /** The per-deployment HMAC key of {@code com.telemed.common.trust}, read here by name only. */
    public static final String TRUST_KEY = "platform.trust.key";
    public static final String TRUST_KEY_DEVELOPMENT_VALUE = "local-development-trust-key-not-a-secret";

    /** The datasource's development credentials (platform-commons' {@code microprofile-config.properties}). */
    public static final String DATASOURCE_DEVELOPMENT_PASSWORD = "postgres";

    /**
     * Whether the service has a database of its own (default true). The web service, which calls the
     * others and stores nothing, sets {@code platform.datasource.enabled=false}: then no datasource
     * credentials are asked of its deployment.
     */
    public static final String DATASOURCE_ENABLED = "platform.datasource.enabled";

    /**
     * What every service needs: its datasource's credentials (a service with a database), the platform
     * trust key and, in {@code SERVICE_ENVIRONMENT=production}, encrypted and verified transport
     * ({@link TransportSettings}).
     */
    static final List<ProductionRequirement> PLATFORM = List.of(
            withDatabase(required("quarkus.datasource.username", "QUARKUS_DATASOURCE_USERNAME")),
            withDatabase(secret("quarkus.datasource.password", "QUARKUS_DATASOURCE_PASSWORD", DATASOURCE_DEVELOPMENT_PASSWORD)),
            secret(TRUST_KEY, "PLATFORM_TRUST_KEY", TRUST_KEY_DEVELOPMENT_VALUE),
            new TransportSettings());

    private static ProductionRequirement withDatabase(ProductionRequirement requirement) {
        return config -> config.getOptionalValue(DATASOURCE_ENABLED, Boolean.class).orElse(true)
                ? requirement.refusals(config)
                : List.of();
    }

    private final List<ProductionRequirement> contributed;
    private final Config config;
    private boolean passed;

    public ProductionSettings(@All List<ProductionRequirement> contributed, Config config) {
        this.contributed = List.copyOf(contributed);
        this.config = config;
    }

    void onStart(@Observes @Priority(Interceptor.Priority.PLATFORM_BEFORE) StartupEvent event) {
        check();
    }

    /** Throws {@link ConfigurationException} when production settings are wrong; otherwise returns (checks once). */
    public synchronized void check() {
        if (passed) {
            return;
        }
        if (applies(LaunchMode.current(), ConfigUtils.getProfiles())) {
            List<String> refusals = refusals(config, contributed);
            if (!refusals.isEmpty()) {
                throw new ConfigurationException(message(refusals));
            }
        }
        passed = true;
    }

    /** Whether the check applies: a packaged run (not dev mode, not tests) outside the {@code local} profile. */
    static boolean applies(LaunchMode mode, List<String> profiles) {
        return !mode.isDevOrTest() && !profiles.contains(LOCAL_PROFILE);
    }

    /** Every refusal: the platform's settings first, then the service's own in alphabetical order (beans come in no set order). */
    static List<String> refusals(Config config, List<ProductionRequirement> contributed) {
        List<String> refusals = new ArrayList<>();
        PLATFORM.forEach(requirement -> refusals.addAll(requirement.refusals(config)));
        List<String> own = new ArrayList<>();
        contributed.forEach(requirement -> own.addAll(requirement.refusals(config)));
        own.sort(null);
        refusals.addAll(own);
        return refusals;
    }

    /** One line. */
    static String message(List<String> refusals) {
        return "Refusing to start in production: " + String.join("; ", refusals)
                + ". Development values apply only under the dev, test and local profiles.";
    }
}
