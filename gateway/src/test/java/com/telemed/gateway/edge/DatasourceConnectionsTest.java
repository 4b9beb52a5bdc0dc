package com.telemed.gateway.edge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.testkit.infra.EmbeddedPostgresServer;
import com.telemed.testkit.infra.FileTrees;
import com.telemed.testkit.infra.FreePorts;
import io.quarkus.runtime.configuration.ConfigurationException;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.SslMode;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The credential lookups' pool connects as the datasource's JDBC URL says: against a real
 * (embedded) PostgreSQL, the server sees the URL's options, a TLS mode the server cannot meet
 * refuses to connect, and a URL with several hosts reaches the one that answers.
 */
class DatasourceConnectionsTest {

    private static Path directory;
    private static EmbeddedPostgresServer postgres;
    private static Vertx vertx;

    @BeforeAll
    static void start() throws Exception {
        directory = Files.createTempDirectory("gateway-datasource-");
        postgres = EmbeddedPostgresServer.start(directory.resolve("postgres"), 0, false);
        vertx = Vertx.vertx();
    }

    @AfterAll
    static void stop() throws Exception {
        if (vertx != null) {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
        if (postgres != null) {
            postgres.close();
        }
        FileTrees.delete(directory);
    }

    private static String url(String hosts, String query) {
        return "jdbc:postgresql://" + hosts + "/postgres" + query;
    }

    private static String server() {
        return "127.0.0.1:" + postgres.port();
    }

    private static Row session(String jdbcUrl) throws Exception {
        SqlClient client = DatasourceConnections.client(vertx,
                DatasourceConnections.target(jdbcUrl, postgres.username(), postgres.password()), 2);
        try {
            return client.query("SELECT application_name, current_setting('statement_timeout'),"
                            + " current_setting('search_path'), ssl"
                            + " FROM pg_stat_activity JOIN pg_stat_ssl USING (pid) WHERE pid = pg_backend_pid()")
                    .execute().toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS).iterator().next();
        } finally {
            client.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
    }

    /**
     * The credential lookups' client (issue 23): with one connection, the queries of 40 concurrent
     * calls are all answered, each with its own parameter, by one backend (the client pipelines
     * them; what that saves is measured by bench/gateway-overhead.sh, not here).
     */
    @Test
    void concurrentQueriesAreAllAnsweredOverOneConnection() throws Exception {
        SqlClient client = DatasourceConnections.client(vertx,
                DatasourceConnections.target(url(server(), ""), postgres.username(), postgres.password()), 1);
        try {
            List<Future<RowSet<Row>>> queries = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                queries.add(client.preparedQuery("SELECT $1::int, pg_backend_pid()").execute(Tuple.of(i)));
            }
            Future.all(queries).toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
            Set<Integer> backends = new HashSet<>();
            for (int i = 0; i < queries.size(); i++) {
                Row row = queries.get(i).result().iterator().next();
                assertEquals(i, row.getInteger(0));
                backends.add(row.getInteger(1));
            }
            assertEquals(1, backends.size());
        } finally {
            client.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
    }

    /** Used to be dropped with the whole query string: the server saw "vertx-pg-client", 0 and the default path. */
    @Test
    void theServerSeesTheUrlsOptions() throws Exception {
        Row row = session(url(server(), "?ApplicationName=gateway-keys&connectTimeout=5"
                + "&options=-c%20statement_timeout%3D4321&currentSchema=keys,public"));
        assertEquals("gateway-keys", row.getString(0));
        assertEquals("4321ms", row.getString(1));
        assertEquals("keys,public", row.getString(2));
        assertFalse(row.getBoolean(3));
    }

    /** sslmode=require against a server without TLS: no connection (it used to connect in clear text). */
    @Test
    void aTlsModeTheServerCannotMeetRefusesToConnect() {
        ExecutionException refused = assertThrows(ExecutionException.class,
                () -> session(url(server(), "?sslmode=require&ApplicationName=gateway-keys")));
        assertEquals("Postgres Server does not handle SSL connection", refused.getCause().getMessage());
    }

    /** Hosts are tried in the URL's order: the first is a closed port, the second answers. */
    @Test
    void aUrlWithSeveralHostsReachesTheOneThatAnswers() throws Exception {
        String hosts = "127.0.0.1:" + FreePorts.next() + "," + server();
        assertEquals("second-host", session(url(hosts, "?ApplicationName=second-host&connectTimeout=2")).getString(0));
        // The embedded server is a primary: a secondary is wanted in vain, preferred with a fallback.
        assertEquals("prefers-secondary",
                session(url(hosts, "?ApplicationName=prefers-secondary&targetServerType=preferSecondary")).getString(0));
        assertThrows(ExecutionException.class, () -> session(url(hosts, "?targetServerType=secondary")));
        assertEquals("primary", session(url(server() + "," + server(), "?ApplicationName=primary&targetServerType=primary"))
                .getString(0));
    }

    @Test
    void pgjdbcsDefaultsAndTlsRulesAreKept() throws Exception {
        PgConnectOptions plain = DatasourceConnections.target("jdbc:postgresql://db.internal/gateway", "gw", "pw").hosts().get(0);
        assertEquals("db.internal", plain.getHost());
        assertEquals(5432, plain.getPort());
        assertEquals("gateway", plain.getDatabase());
        assertEquals("gw", plain.getUser());
        assertEquals("pw", plain.getPassword());
        assertEquals(SslMode.PREFER, plain.getSslMode());
        assertTrue(plain.isTrustAll());
        assertEquals(10_000, plain.getConnectTimeout());

        Path rootCert = Files.writeString(directory.resolve("root.crt"), "not read until a connection is made");
        PgConnectOptions full = DatasourceConnections.target("jdbc:postgresql://[::1]:6543/gateway?sslmode=verify-full"
                + "&sslrootcert=" + rootCert + "&user=url-user&password=url-password", "gw", "pw").hosts().get(0);
        assertEquals("::1", full.getHost());
        assertEquals(6543, full.getPort());
        assertEquals(SslMode.VERIFY_FULL, full.getSslMode());
        assertFalse(full.isTrustAll());
        assertEquals("HTTPS", full.getHostnameVerificationAlgorithm());
        assertEquals(List.of(rootCert.toString()), full.getPemTrustOptions().getCertPaths());
        assertEquals("url-user", full.getUser());
        assertEquals("url-password", full.getPassword());

        PgConnectOptions ssl = DatasourceConnections.target("jdbc:postgresql://h/db?ssl=true&sslrootcert=" + rootCert
                + "&prepareThreshold=0&reWriteBatchedInserts=true", null, null).hosts().get(0);
        assertEquals(SslMode.VERIFY_FULL, ssl.getSslMode());

        DatasourceConnections.Target balanced = DatasourceConnections.target(
                "jdbc:postgresql://a:1,b:2/db?loadBalanceHosts=true&targetServerType=master", null, null);
        assertEquals(List.of("a:1", "b:2"), balanced.hosts().stream().map(o -> o.getHost() + ":" + o.getPort()).toList());
        assertTrue(balanced.loadBalance());
        assertEquals(DatasourceConnections.ServerType.PRIMARY, balanced.serverType());
    }

    @Test
    void whatCannotBeHonouredStopsTheStartNamingIt() {
        assertEquals("quarkus.datasource.jdbc.url (QUARKUS_DATASOURCE_JDBC_URL) has parameters the gateway's credential"
                        + " lookups cannot honour: socketFactory, sslcert",
                assertThrows(ConfigurationException.class, () -> DatasourceConnections.target(
                        "jdbc:postgresql://h/db?sslcert=/c.pem&socketFactory=x.Y&password=hunter2", null, null)).getMessage());
        assertEquals("quarkus.datasource.jdbc.url (QUARKUS_DATASOURCE_JDBC_URL) asks for sslmode=verify-ca but its root"
                        + " certificate /nowhere/root.crt (sslrootcert) cannot be read",
                assertThrows(ConfigurationException.class, () -> DatasourceConnections.target(
                        "jdbc:postgresql://h/db?sslmode=verify-ca&sslrootcert=/nowhere/root.crt", null, null)).getMessage());
        assertEquals("quarkus.datasource.jdbc.url (QUARKUS_DATASOURCE_JDBC_URL) has sslmode=verify, which is not one of"
                        + " disable, allow, prefer, require, verify-ca, verify-full",
                assertThrows(ConfigurationException.class, () -> DatasourceConnections.target(
                        "jdbc:postgresql://h/db?sslmode=verify", null, null)).getMessage());
        assertEquals("quarkus.datasource.jdbc.url (QUARKUS_DATASOURCE_JDBC_URL) is not a PostgreSQL JDBC URL",
                assertThrows(ConfigurationException.class, () -> DatasourceConnections.target(
                        "postgresql://h/db", null, null)).getMessage());
    }
}
