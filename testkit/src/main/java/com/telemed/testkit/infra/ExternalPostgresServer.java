package com.telemed.testkit.infra;

/** A PostgreSQL server someone else runs, named by PLATFORM_POSTGRES_* variables. */
public record ExternalPostgresServer(String host, int port, String username, String password)
        implements PostgresServer {

    @Override
    public void ensureDatabase(String name) {
        Databases.ensureDatabase(this, name);
    }

    @Override
    public long pid() {
        return -1;
    }

    @Override
    public void close() {
        // Not ours to stop.
    }
}
