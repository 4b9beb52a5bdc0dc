package com.telemed.testkit.platform;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

/**
 * One dynamic class-data archive per service (the JDK's AppCDS, Java 17: {@code -XX:ArchiveClassesAtExit},
 * then {@code -XX:SharedArchiveFile}) in a folder of the caller's, for the services' current builds: a
 * service whose archive is missing, or older than its build's {@code quarkus-run.jar}, makes it when its
 * JVM exits (written as {@code <module>.jsa.part} and moved into place by {@link #kept} once the JVM
 * exited by itself, never after a kill); one whose archive is current maps its classes from it instead of
 * loading and verifying them from the jars. ./stack keeps them in {@code .stack/class-data/}: the first
 * {@code up} of a build makes them at {@code down}, every later {@code up} starts from them. The JVM checks
 * an archive against the jars it was made from and runs without one that does not match.
 */
public final class ServiceClassArchives {

    /** The JVM's notes on what it archives or maps (hundreds of lines at a dump) stay out of the service's log. */
    static final String QUIET = "-Xlog:cds=off";
    private static final String PART = ".part";

    private final Path folder;

    public ServiceClassArchives(Path folder) {
        this.folder = folder.toAbsolutePath();
    }

    public Path folder() {
        return folder;
    }

    Path archive(PlatformService service) {
        return folder.resolve(service.module() + ".jsa");
    }

    private Path part(PlatformService service) {
        return folder.resolve(service.module() + ".jsa" + PART);
    }

    /**
     * The options of one start of {@code service} whose build is {@code application}: the archive when it
     * is current, else (for the service's first instance only, {@code mayMake}: two JVMs never write one
     * file) those that make it at the JVM's exit.
     */
    List<String> options(PlatformService service, Path application, boolean mayMake) {
        Path archive = archive(service);
        try {
            if (Files.isRegularFile(archive) && Files.size(archive) > 0 && Files.isRegularFile(application)
                    && Files.getLastModifiedTime(archive).compareTo(Files.getLastModifiedTime(application)) > 0) {
                return List.of("-XX:SharedArchiveFile=" + archive, QUIET);
            }
            if (!mayMake) {
                return List.of();
            }
            Files.createDirectories(folder);
            Files.deleteIfExists(part(service));
        } catch (IOException e) {
            return List.of();
        }
        return List.of("-XX:ArchiveClassesAtExit=" + part(service), QUIET);
    }

    /**
     * After one JVM of {@code service} ended: an archive it made is moved into place when it exited by
     * itself ({@code killed} false), and removed otherwise (a killed JVM may have written part of it).
     */
    void kept(PlatformService service, boolean killed) {
        Path part = part(service);
        try {
            if (!killed && Files.isRegularFile(part) && Files.size(part) > 0) {
                Files.move(part, archive(service), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } else {
                Files.deleteIfExists(part);
            }
        } catch (IOException e) {
            // No archive this time: the next start makes one.
        }
    }
}
