package com.telemed.testkit.infra;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * PostgreSQL from the binaries Maven delivered (zonky), extracted by {@link PostgresBinaries} into
 * the {@link PlatformCache} and run from a data directory of ours.
 */
public final class EmbeddedPostgresServer implements PostgresServer {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedPostgresServer.class);

    private final EmbeddedPostgres postgres;
    private final Path dataDirectory;

    private EmbeddedPostgresServer(EmbeddedPostgres postgres, Path dataDirectory) {
        this.postgres = postgres;
        this.dataDirectory = dataDirectory;
    }

    /**
     * Starts PostgreSQL on the port (0 picks a free one). With {@code keepData} an existing
     * cluster in the directory is reused, which is how ./stack keeps its data across restarts;
     * then the caller alone decides when it stops (no shutdown hook racing the services' stop),
     * and the server's output goes to {@code postgres.log} beside the data.
     */
    /**
     * Libraries the server preloads ({@code shared_preload_libraries}), e.g. {@code pg_stat_statements}
     * for a benchmark that reads what each statement cost; none unless set.
     */
    public static final String PRELOAD_PROPERTY = "testkit.postgres.preload";

    public static EmbeddedPostgresServer start(Path dataDirectory, int port, boolean keepData) {
        return start(dataDirectory, port, keepData, true);
    }

    /**
     * As {@link #start(Path, int, boolean)}; a server that is not {@code durable} neither syncs to
     * disk nor waits for it at a commit ({@code fsync}, {@code synchronous_commit} and
     * {@code full_page_writes} off): a test JVM's, whose data dies with it.
     */
    public static EmbeddedPostgresServer start(Path dataDirectory, int port, boolean keepData, boolean durable) {
        return start(dataDirectory, port, keepData, durable, STARTUP_WAIT);
    }

    /** How long a start may take unless the caller gives longer. */
    public static final Duration STARTUP_WAIT = Duration.ofSeconds(60);

    /** As {@link #start(Path, int, boolean, boolean)}, waiting up to {@code startupWait} for the server. */
    public static EmbeddedPostgresServer start(Path dataDirectory, int port, boolean keepData, boolean durable,
                                               Duration startupWait) {
        PostgresBinaries binaries = PostgresBinaries.prepare(PlatformCache.directory());
        try {
            if (keepData) {
                removeUnfinishedCluster(dataDirectory);
            }
            Files.createDirectories(dataDirectory);
            EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                    .setPgBinaryResolver(binaries.resolver())
                    .setOverrideWorkingDirectory(binaries.workingDirectory().toFile());
            if (keepData) {
                var log = ProcessBuilder.Redirect.appendTo(dataDirectory.resolveSibling("postgres.log").toFile());
                builder.setOutputRedirector(log).setErrorRedirector(log);
                // ./stack's server: a developer's data fits in 16 MB of buffers (initdb's 128 MB are touched,
                // and counted resident in every backend, as they fill: issue 44), and its seven pools of at
                // most 16 in 150 connections (each slot's shared memory, its lock table share included,
                // is set aside at start).
                builder.setServerConfig("shared_buffers", "16MB");
            }
            if (!durable) {
                // A test JVM's server: its data lives as long as the JVM and nothing kills it, so
                // commits need not wait for the disk.
                builder.setServerConfig("fsync", "off")
                        .setServerConfig("synchronous_commit", "off")
                        .setServerConfig("full_page_writes", "off");
            }
            String preload = System.getProperty(PRELOAD_PROPERTY, "").strip();
            if (!preload.isEmpty()) {
                builder.setServerConfig("shared_preload_libraries", preload);
            }
            EmbeddedPostgres postgres = builder
                    .setDataDirectory(dataDirectory)
                    .setRegisterShutdownHook(!keepData)
                    .setCleanDataDirectory(!keepData)
                    .setPort(port == 0 ? FreePorts.next() : port)
                    .setPGStartupWait(startupWait)
                    // Seven services with their own pools share this server (web-service has no database);
                    // a test's or benchmark's replicas and restarts add pools.
                    .setServerConfig("max_connections", keepData ? "150" : "300")
                    .setServerConfig("listen_addresses", "127.0.0.1")
                    .start();
            return new EmbeddedPostgresServer(postgres, dataDirectory);
        } catch (IOException e) {
            throw new IllegalStateException("PostgreSQL did not start from " + dataDirectory + " ("
                    + e.getMessage() + "); its log: " + dataDirectory.resolveSibling("postgres.log"), e);
        }
    }

    /**
     * A data directory in which PostgreSQL never started (no {@code postmaster.opts}, which the
     * server writes at every start and never removes) is what an interrupted {@code initdb} leaves:
     * it holds no data, and zonky would take its {@code postgresql.conf} for a finished cluster.
     * It is removed so that the start runs {@code initdb} again.
     */
    static boolean removeUnfinishedCluster(Path dataDirectory) throws IOException {
        if (!Files.isDirectory(dataDirectory) || Files.exists(dataDirectory.resolve("postmaster.opts"))) {
            return false;
        }
        try (var children = Files.list(dataDirectory)) {
            if (children.findAny().isEmpty()) {
                return false;
            }
        }
        LOG.warn("Removing {}: PostgreSQL never started there (an earlier initdb was interrupted)", dataDirectory);
        FileTrees.delete(dataDirectory);
        return true;
    }

    @Override
    public String host() {
        return "127.0.0.1";
    }

    @Override
    public int port() {
        return postgres.getPort();
    }

    @Override
    public String username() {
        return "postgres";
    }

    @Override
    public String password() {
        return "postgres";
    }

    @Override
    public void ensureDatabase(String name) {
        Databases.ensureDatabase(this, name);
    }

    @Override
    public long pid() {
        try {
            return Long.parseLong(Files.readAllLines(dataDirectory.resolve("postmaster.pid")).get(0).trim());
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    @Override
    public void close() {
        try {
            postgres.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot stop embedded PostgreSQL", e);
        }
    }
}
