package com.telemed.testkit.platform;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The eight services: their module, their short name (their database's name, when they have one, and
 * their {@code SERVICE_URLS_<KEY>}) and the ports ./stack gives them (http, management). web-service,
 * the pages, has no database.
 */
public enum PlatformService {
    GATEWAY("gateway", "gateway", true, 8080),
    REQUESTS("requests-service", "requests", true, 8081),
    MEMBERS("members-service", "members", true, 8082),
    CATALOGUE("catalogue-service", "catalogue", true, 8083),
    MESSAGING("messaging-service", "messaging", true, 8084),
    BILLING("billing-service", "billing", true, 8085),
    WEBHOOK("webhook-service", "webhook", true, 8086),
    WEB("web-service", "web", false, 8087);

    private final String module;
    private final String name;
    private final boolean hasDatabase;
    private final int stackPort;

    PlatformService(String module, String name, boolean hasDatabase, int stackPort) {
        this.module = module;
        this.name = name;
        this.hasDatabase = hasDatabase;
        this.stackPort = stackPort;
    }

    public String module() {
        return module;
    }

    /** Whether it keeps a PostgreSQL database of its own (every service but web-service). */
    public boolean hasDatabase() {
        return hasDatabase;
    }

    /** Its database's name; a service without one ({@link #hasDatabase}) has none to name, and this throws. */
    public String database() {
        if (!hasDatabase) {
            throw new IllegalStateException(module + " has no database");
        }
        return name;
    }

    /** The services with a database of their own, in order. */
    public static List<PlatformService> withDatabase() {
        return Arrays.stream(values()).filter(PlatformService::hasDatabase).toList();
    }

    public int stackPort() {
        return stackPort;
    }

    /**
     * The management port ./stack gives it (health and metrics, {@code QUARKUS_MANAGEMENT_PORT}): its
     * http port plus 1000, 9080 to 9087.
     */
    public int stackManagementPort() {
        return stackPort + 1000;
    }

    /** Its key in {@code SERVICE_URLS_<KEY>}, the variables services find each other by. */
    public String urlKey() {
        return name.toUpperCase(Locale.ROOT);
    }

    /** The runnable application the Quarkus build leaves in the module. */
    public Path application(Path projectRoot) {
        return projectRoot.resolve(module).resolve("target/quarkus-app/quarkus-run.jar");
    }
}
