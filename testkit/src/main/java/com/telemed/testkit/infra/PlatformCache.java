package com.telemed.testkit.infra;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The folder where the testkit keeps what it prepares once per machine and reuses (today the
 * extracted PostgreSQL binaries and the page tests' axe-core tarball), never the JVM's temp folder:
 * <ol>
 *   <li>{@code PLATFORM_CACHE_DIR} when set (./stack sets it to {@code <stack home>/cache});</li>
 *   <li>otherwise {@code .stack/cache} of the checkout the JVM runs in (a test runs in its module's
 *       folder, so the checkout is found by walking up to the folder holding {@code stack} and
 *       {@code testkit});</li>
 *   <li>otherwise {@code ~/.cache/telemed-platform}.</li>
 * </ol>
 * Deleting the folder is always safe: what it held is prepared again on the next start.
 */
public final class PlatformCache {

    public static final String VARIABLE = "PLATFORM_CACHE_DIR";

    private PlatformCache() {
    }

    public static Path directory() {
        return directory(System.getenv(), Path.of(System.getProperty("user.dir")), Path.of(System.getProperty("user.home")));
    }

    static Path directory(Map<String, String> environment, Path workingDirectory, Path home) {
        String configured = environment.get(VARIABLE);
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured).toAbsolutePath().normalize();
        }
        for (Path folder = workingDirectory.toAbsolutePath().normalize(); folder != null; folder = folder.getParent()) {
            if (Files.isRegularFile(folder.resolve("stack")) && Files.isDirectory(folder.resolve("testkit"))) {
                return folder.resolve(".stack").resolve("cache");
            }
        }
        return home.resolve(".cache").resolve("telemed-platform");
    }
}
