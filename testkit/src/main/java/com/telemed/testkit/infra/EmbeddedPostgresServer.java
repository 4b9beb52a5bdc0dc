package com.telemed.testkit.infra;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/** PostgreSQL from the binaries Maven delivered (zonky), run from a data directory of ours. */
public final class EmbeddedPostgresServer implements PostgresServer {

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
    public static EmbeddedPostgresServer start(Path dataDirectory, int port, boolean keepData) {
        try {
            Files.createDirectories(dataDirectory);
            EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder();
            if (keepData) {
                var log = ProcessBuilder.Redirect.appendTo(dataDirectory.resolveSibling("postgres.log").toFile());
                builder.setOutputRedirector(log).setErrorRedirector(log);
            }
            EmbeddedPostgres postgres = builder
                    .setDataDirectory(dataDirectory)
                    .setRegisterShutdownHook(!keepData)
                    .setCleanDataDirectory(!keepData)
                    .setPort(port == 0 ? FreePorts.next() : port)
                    .setPGStartupWait(Duration.ofSeconds(60))
                    // Seven services with their own pools share this server.
                    .setServerConfig("max_connections", "300")
                    .setServerConfig("listen_addresses", "127.0.0.1")
                    .start();
            return new EmbeddedPostgresServer(postgres, dataDirectory);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start embedded PostgreSQL in " + dataDirectory, e);
        }
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
