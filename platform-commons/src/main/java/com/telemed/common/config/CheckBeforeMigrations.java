package com.telemed.common.config;

import io.quarkus.arc.properties.IfBuildProperty;
import io.quarkus.flyway.FlywayConfigurationCustomizer;
import jakarta.inject.Singleton;
import org.flywaydb.core.api.configuration.FluentConfiguration;

/**
 * Runs {@link ProductionSettings#check()} when Quarkus builds the Flyway instance that migrates at
 * start: the earliest point application code runs, before the first connection to the database
 * (an observer of {@code StartupEvent} runs only after the migrations, and a wrong password would
 * fail there first, with the driver's message instead of ours). It changes nothing in Flyway's
 * configuration. Every service with a database migrates with Flyway at start (platform-commons'
 * defaults); a service without one ({@code platform.datasource.enabled=false}, build time) has neither
 * Flyway nor this bean, and runs the check otherwise (the web service: before its HTTP router is built).
 */
@Singleton
@IfBuildProperty(name = ProductionSettings.DATASOURCE_ENABLED, stringValue = "true", enableIfMissing = true)
public class CheckBeforeMigrations implements FlywayConfigurationCustomizer {

    private final ProductionSettings settings;

    public CheckBeforeMigrations(ProductionSettings settings) {
        this.settings = settings;
    }

    @Override
    public void customize(FluentConfiguration configuration) {
        settings.check();
    }
}
