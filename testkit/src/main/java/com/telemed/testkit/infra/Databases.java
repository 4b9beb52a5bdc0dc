package com.telemed.testkit.infra;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

/** Database administration shared by the embedded and external servers. */
final class Databases {

    private Databases() {
    }

    static void ensureDatabase(PostgresServer server, String name) {
        if (!name.matches("[a-z][a-z0-9_]{0,62}")) {
            throw new IllegalArgumentException("unsafe database name: " + name);
        }
        try (Connection connection = DriverManager.getConnection(
                server.jdbcUrl("postgres"), server.username(), server.password());
             var exists = connection.prepareStatement("SELECT 1 FROM pg_database WHERE datname = ?")) {
            exists.setString(1, name);
            try (var rows = exists.executeQuery()) {
                if (rows.next()) {
                    return;
                }
            }
            try (var create = connection.createStatement()) {
                create.execute("CREATE DATABASE " + name);
            }
        } catch (SQLException e) {
            // Two creators racing (two launchers on one external server, or two platforms of one test
            // JVM starting at once): the loser sees duplicate_database, or in a closer race the unique
            // violation of pg_database's name index. Either way the database is there.
            if (!"42P04".equals(e.getSQLState()) && !"23505".equals(e.getSQLState())) {
                throw new IllegalStateException("cannot create database " + name, e);
            }
        }
    }

    static void dropDatabase(PostgresServer server, String name) {
        if (!name.matches("[a-z][a-z0-9_]{0,62}")) {
            throw new IllegalArgumentException("unsafe database name: " + name);
        }
        try (Connection connection = DriverManager.getConnection(
                server.jdbcUrl("postgres"), server.username(), server.password());
             var drop = connection.createStatement()) {
            drop.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
        } catch (SQLException e) {
            throw new IllegalStateException("cannot drop database " + name, e);
        }
    }
}
