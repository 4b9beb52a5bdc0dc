package com.telemed.gateway.edge;

import io.quarkus.runtime.configuration.ConfigurationException;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgConnection;
import io.vertx.pgclient.SslMode;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.SqlConnectOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;
import java.util.function.Predicate;
import org.postgresql.Driver;

/**
 * The non-blocking client's connections to the database the datasource's JDBC URL names, made as
 * the JDBC driver (pgjdbc) makes its own: the URL is read by pgjdbc's own parser, and every
 * parameter that decides where and how the driver connects is carried over ({@code sslmode},
 * {@code ssl}, {@code sslrootcert}, {@code ApplicationName}, {@code options}, {@code currentSchema},
 * {@code connectTimeout}, TCP options, several hosts with {@code targetServerType} and
 * {@code loadBalanceHosts}); parameters that only tune pgjdbc's own statements and logging are
 * accepted and have no counterpart here ({@link #CLIENT_SIDE_ONLY}); any other parameter is refused
 * at startup, naming it, instead of being dropped (the pool used to rebuild the URL without its
 * query string, connecting without TLS whatever {@code sslmode} said).
 *
 * <p>pgjdbc's defaults are kept where they differ from Vert.x's: {@code sslmode=prefer} (not
 * {@code disable}), no certificate check below {@code verify-ca}, {@code ~/.postgresql/root.crt}
 * as the root certificate of {@code verify-ca}/{@code verify-full}, a 10 s connect timeout, and
 * several hosts tried in order (not round-robin) unless {@code loadBalanceHosts=true}.
 */
public final class DatasourceConnections {

    /** pgjdbc parameters that change nothing in how this client connects: statement handling, fetching, logging, timeouts of queries. */
    static final Set<String> CLIENT_SIDE_ONLY = Set.of(
            "prepareThreshold", "preparedStatementCacheQueries", "preparedStatementCacheSizeMiB", "preferQueryMode",
            "defaultRowFetchSize", "reWriteBatchedInserts", "reWriteBatchedInsertsSize", "binaryTransfer",
            "binaryTransferEnable", "binaryTransferDisable", "stringtype", "autosave", "cleanupSavepoints",
            "loggerLevel", "loggerFile", "logUnclosedConnections", "logServerErrorDetail", "disableColumnSanitiser",
            "escapeSyntaxCallMode", "quoteReturningIdentifiers", "adaptiveFetch", "adaptiveFetchMinimum",
            "adaptiveFetchMaximum", "maxResultBuffer", "maxSendBufferSize", "hostRecheckSeconds", "loginTimeout",
            "socketTimeout", "cancelSignalTimeout", "queryTimeout", "readOnly", "readOnlyMode", "unknownLength",
            "assumeMinServerVersion", "groupStartupParameters", "sslResponseTimeout", "databaseMetadataCacheFields",
            "databaseMetadataCacheFieldsMiB", "hideUnprivilegedObjects", "convertBooleanToNumeric", "flushCacheOnDdl",
            "allowEncodingChanges", "xmlFactoryFactory", "classLoaderStrategy");

    /** Mapped below. */
    private static final Set<String> MAPPED = Set.of("PGHOST", "PGPORT", "PGDBNAME", "user", "password",
            "ApplicationName", "options", "currentSchema", "ssl", "sslmode", "sslrootcert", "connectTimeout",
            "tcpKeepAlive", "tcpNoDelay", "receiveBufferSize", "sendBufferSize", "targetServerType",
            "loadBalanceHosts", "gssEncMode", "channelBinding");

    /** pgjdbc's {@code targetServerType}. */
    enum ServerType {
        ANY, PRIMARY, SECONDARY, PREFER_PRIMARY, PREFER_SECONDARY
    }

    /** Where and how to connect: the hosts in the URL's order, each with every connection option. */
    record Target(List<PgConnectOptions> hosts, ServerType serverType, boolean loadBalance) {
    }

    private DatasourceConnections() {
    }

    /**
     * The datasource's URL and credentials as pgjdbc reads them (user and password in the URL win,
     * as they do for the driver). Throws {@link ConfigurationException} naming what cannot be honoured.
     */
    static Target target(String jdbcUrl, String username, String password) {
        Properties defaults = new Properties();
        if (username != null) {
            defaults.setProperty("user", username);
        }
        if (password != null) {
            defaults.setProperty("password", password);
        }
        Properties url = Driver.parseURL(jdbcUrl, defaults);
        if (url == null) {
            throw refused("is not a PostgreSQL JDBC URL");
        }
        List<String> unsupported = new ArrayList<>();
        for (String name : url.stringPropertyNames()) {
            if (!MAPPED.contains(name) && !CLIENT_SIDE_ONLY.contains(name)) {
                unsupported.add(name);
            }
        }
        if (!unsupported.isEmpty()) {
            Collections.sort(unsupported);
            throw refused("has parameters the gateway's credential lookups cannot honour: " + String.join(", ", unsupported));
        }
        String gssEncMode = url.getProperty("gssEncMode", "allow");
        if (!Set.of("disable", "allow", "prefer").contains(gssEncMode)) {
            throw refused("asks for gssEncMode=" + gssEncMode + ", which the gateway's credential lookups cannot honour");
        }
        String channelBinding = url.getProperty("channelBinding", "prefer");
        if (!Set.of("disable", "prefer").contains(channelBinding)) {
            throw refused("asks for channelBinding=" + channelBinding + ", which the gateway's credential lookups cannot honour");
        }

        String[] hosts = url.getProperty("PGHOST").split(",");
        String[] ports = url.getProperty("PGPORT").split(",");
        if (hosts.length != ports.length) {
            throw refused("names " + hosts.length + " hosts and " + ports.length + " ports");
        }
        List<PgConnectOptions> options = new ArrayList<>();
        for (int i = 0; i < hosts.length; i++) {
            PgConnectOptions host = new PgConnectOptions()
                    .setHost(unbracket(hosts[i]))
                    .setPort(integer(ports[i], "port"))
                    .setDatabase(url.getProperty("PGDBNAME"))
                    .setCachePreparedStatements(true);
            if (url.getProperty("user") != null) {
                host.setUser(url.getProperty("user"));
            }
            if (url.getProperty("password") != null) {
                host.setPassword(url.getProperty("password"));
            }
            // Sent in the startup packet, as pgjdbc sends them.
            if (url.getProperty("ApplicationName") != null) {
                host.addProperty("application_name", url.getProperty("ApplicationName"));
            }
            if (url.getProperty("options") != null) {
                host.addProperty("options", url.getProperty("options"));
            }
            if (url.getProperty("currentSchema") != null) {
                host.addProperty("search_path", url.getProperty("currentSchema"));
            }
            // pgjdbc: seconds, default 10, 0 for none.
            host.setConnectTimeout(integer(url.getProperty("connectTimeout", "10"), "connectTimeout") * 1000);
            host.setTcpKeepAlive(bool(url.getProperty("tcpKeepAlive", "false"), "tcpKeepAlive"));
            host.setTcpNoDelay(bool(url.getProperty("tcpNoDelay", "true"), "tcpNoDelay"));
            if (url.getProperty("receiveBufferSize") != null) {
                host.setReceiveBufferSize(integer(url.getProperty("receiveBufferSize"), "receiveBufferSize"));
            }
            if (url.getProperty("sendBufferSize") != null) {
                host.setSendBufferSize(integer(url.getProperty("sendBufferSize"), "sendBufferSize"));
            }
            tls(host, url);
            options.add(host);
        }
        return new Target(List.copyOf(options), serverType(url.getProperty("targetServerType", "any")),
                bool(url.getProperty("loadBalanceHosts", "false"), "loadBalanceHosts"));
    }

    /** pgjdbc's TLS rules: {@code ssl=true} without {@code sslmode} is verify-full; neither is prefer. */
    private static void tls(PgConnectOptions host, Properties url) {
        String mode = url.getProperty("sslmode");
        if (mode == null) {
            mode = bool(url.getProperty("ssl", "false"), "ssl") ? "verify-full" : "prefer";
        }
        switch (mode) {
            case "disable" -> host.setSslMode(SslMode.DISABLE);
            case "allow", "prefer", "require" -> {
                // pgjdbc checks no certificate in these modes.
                host.setSslMode(SslMode.of(mode)).setTrustAll(true).setHostnameVerificationAlgorithm("");
            }
            case "verify-ca", "verify-full" -> {
                String rootCert = url.getProperty("sslrootcert",
                        Path.of(System.getProperty("user.home"), ".postgresql", "root.crt").toString());
                if (!Files.isReadable(Path.of(rootCert))) {
                    throw refused("asks for sslmode=" + mode + " but its root certificate " + rootCert
                            + " (sslrootcert) cannot be read");
                }
                host.setSslMode(SslMode.of(mode)).setPemTrustOptions(new PemTrustOptions().addCertPath(rootCert))
                        .setHostnameVerificationAlgorithm("verify-full".equals(mode) ? "HTTPS" : "");
            }
            default -> throw refused("has sslmode=" + mode + ", which is not one of disable, allow, prefer, require,"
                    + " verify-ca, verify-full");
        }
    }

    private static ServerType serverType(String value) {
        return switch (value) {
            case "any" -> ServerType.ANY;
            case "primary", "master" -> ServerType.PRIMARY;
            case "secondary", "slave" -> ServerType.SECONDARY;
            case "preferPrimary" -> ServerType.PREFER_PRIMARY;
            case "preferSecondary", "preferSlave" -> ServerType.PREFER_SECONDARY;
            default -> throw refused("has targetServerType=" + value + ", which pgjdbc does not know");
        };
    }

    /**
     * A pipelining client over at most {@code maxSize} connections, straight to the one host or
     * through a choice made per connection as pgjdbc makes it. Queries of concurrent calls share a
     * connection, each sent without waiting for the answers to those before it, so one wake-up of a
     * database backend serves several (issue 23: about 0.02 ms of PostgreSQL CPU a lookup against
     * 0.05 to 0.07 with a connection per query).
     */
    static SqlClient client(Vertx vertx, Target target, int maxSize) {
        var builder = PgBuilder.client().with(new PoolOptions().setMaxSize(maxSize)).using(vertx);
        if (target.hosts().size() == 1 && target.serverType() == ServerType.ANY) {
            return builder.connectingTo(target.hosts().get(0)).build();
        }
        return builder.connectingTo(() -> choose(vertx, target)).build();
    }

    /**
     * The host a new connection goes to: the first (in the URL's order, or shuffled with
     * {@code loadBalanceHosts}) that accepts a connection and is of the wanted kind, judged by
     * {@code transaction_read_only} as pgjdbc judges it; a {@code prefer...} type falls back to any
     * host that accepts. One probing connection per pooled connection, which is rarely made.
     */
    static Future<SqlConnectOptions> choose(Vertx vertx, Target target) {
        List<PgConnectOptions> order = new ArrayList<>(target.hosts());
        if (target.loadBalance()) {
            Collections.shuffle(order);
        }
        return switch (target.serverType()) {
            case ANY -> first(vertx, order, 0, null, null);
            case PRIMARY -> first(vertx, order, 0, readOnly -> !readOnly, null);
            case SECONDARY -> first(vertx, order, 0, readOnly -> readOnly, null);
            case PREFER_PRIMARY -> first(vertx, order, 0, readOnly -> !readOnly, null)
                    .recover(none -> first(vertx, order, 0, null, null));
            case PREFER_SECONDARY -> first(vertx, order, 0, readOnly -> readOnly, null)
                    .recover(none -> first(vertx, order, 0, null, null));
        };
    }

    /** The first host from {@code index} that accepts a connection and, when {@code wanted} is given, whose read-only state it accepts. */
    private static Future<SqlConnectOptions> first(Vertx vertx, List<PgConnectOptions> hosts, int index,
                                                   Predicate<Boolean> wanted, Throwable last) {
        if (index == hosts.size()) {
            return Future.failedFuture(last != null ? last
                    : new IllegalStateException("no host of the datasource URL is of the target server type"));
        }
        PgConnectOptions host = hosts.get(index);
        return PgConnection.connect(vertx, host)
                .compose(connection -> (wanted == null ? Future.succeededFuture(true)
                        : connection.query("SHOW transaction_read_only").execute()
                                .map(rows -> {
                                    Row row = rows.iterator().next();
                                    return wanted.test("on".equalsIgnoreCase(row.getString(0)));
                                }))
                        .andThen(done -> connection.close()))
                .transform(probe -> probe.succeeded() && probe.result()
                        ? Future.<SqlConnectOptions>succeededFuture(host)
                        : first(vertx, hosts, index + 1, wanted, probe.failed() ? probe.cause() : last));
    }

    private static String unbracket(String host) {
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }

    private static int integer(String value, String name) {
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw refused("has " + name + "=" + value + ", which is not a number");
        }
    }

    private static boolean bool(String value, String name) {
        return switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw refused("has " + name + "=" + value + ", which is not true or false");
        };
    }

    /** Never quotes the URL itself: it may carry a password. */
    private static ConfigurationException refused(String why) {
        return new ConfigurationException("quarkus.datasource.jdbc.url (QUARKUS_DATASOURCE_JDBC_URL) " + why,
                Set.of("quarkus.datasource.jdbc.url"));
    }
}
