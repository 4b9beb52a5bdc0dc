package com.telemed.testkit.platform;

import java.nio.file.Path;
import java.util.Locale;

/** The seven services: their module, their database and the ports ./stack gives them (http, management). */
public enum PlatformService {
    GATEWAY("gateway", "gateway", 8080),
    REQUESTS("requests-service", "requests", 8081),
    MEMBERS("members-service", "members", 8082),
    CATALOGUE("catalogue-service", "catalogue", 8083),
    MESSAGING("messaging-service", "messaging", 8084),
    BILLING("billing-service", "billing", 8085),
    WEBHOOK("webhook-service", "webhook", 8086);

    private final String module;
    private final String database;
    private final int stackPort;

    PlatformService(String module, String database, int stackPort) {
        this.module = module;
        this.database = database;
        this.stackPort = stackPort;
    }

    public String module() {
        return module;
    }

    public String database() {
        return database;
    }

    public int stackPort() {
        return stackPort;
    }

    /**
     * The management port ./stack gives it (health and metrics, {@code QUARKUS_MANAGEMENT_PORT}): its
     * http port plus 1000, 9080 to 9086.
     */
    public int stackManagementPort() {
        return stackPort + 1000;
    }

    /** Its key in {@code SERVICE_URLS_<KEY>}, the variables services find each other by. */
    public String urlKey() {
        return database.toUpperCase(Locale.ROOT);
    }

    /** The runnable application the Quarkus build leaves in the module. */
    public Path application(Path projectRoot) {
        return projectRoot.resolve(module).resolve("target/quarkus-app/quarkus-run.jar");
    }
}
