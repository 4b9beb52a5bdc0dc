package com.telemed.testkit.infra;

/** A running PostgreSQL server the platform can create its service databases on. */
public interface PostgresServer extends AutoCloseable {

    String host();

    int port();

    String username();

    String password();

    /** Creates the database unless it exists; safe to call on every start. */
    void ensureDatabase(String name);

    /** Process id of the postmaster when this kit started it, else -1. */
    long pid();

    default String jdbcUrl(String database) {
        return "jdbc:postgresql://" + host() + ":" + port() + "/" + database;
    }

    @Override
    void close();
}
