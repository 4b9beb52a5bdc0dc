package com.telemed.gateway.edge;

import com.telemed.gateway.partner.Keys;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.URI;
import java.util.List;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The credential lookups every call makes, read fresh from the database each time so a rotation
 * holds on the very next call on every replica. They run once per call on the hot path, so they
 * use the non-blocking PostgreSQL client on the event loop that received the call: no hand-off to
 * a worker thread and back, no ORM session. The pool connects to the datasource Flyway and
 * Hibernate use (its JDBC URL, user and password); partner writes stay with
 * {@link com.telemed.gateway.partner.PartnerService}.
 */
@ApplicationScoped
public class Credentials {

    /** A partner found by its publishable key, with the origins it allows. */
    public record EmbedPartner(String partnerId, List<String> origins) {
    }

    private final Pool pool;

    public Credentials(Vertx vertx, GatewayConfig config,
                       @ConfigProperty(name = "quarkus.datasource.jdbc.url") String jdbcUrl,
                       @ConfigProperty(name = "quarkus.datasource.username") String username,
                       @ConfigProperty(name = "quarkus.datasource.password") String password) {
        PgConnectOptions connect = PgConnectOptions.fromUri(reactiveUri(jdbcUrl))
                .setUser(username)
                .setPassword(password)
                .setCachePreparedStatements(true);
        this.pool = PgBuilder.pool()
                .with(new PoolOptions().setMaxSize(config.credentialPoolSize()))
                .connectingTo(connect)
                .using(vertx)
                .build();
    }

    @PreDestroy
    void close() {
        pool.close();
    }

    /** The partner whose API key this is; the hash found is compared again in constant time. */
    public Future<Optional<String>> partnerForApiKey(String apiKey) {
        return pool.preparedQuery("SELECT id, api_key_hash FROM partners WHERE api_key_hash = $1")
                .execute(Tuple.of(Keys.hash(apiKey)))
                .map(rows -> first(rows)
                        .filter(row -> Keys.matches(apiKey, row.getString(1)))
                        .map(row -> row.getValue(0).toString()));
    }

    public Future<Optional<EmbedPartner>> partnerForPublishableKey(String publishableKey) {
        return pool.preparedQuery("""
                        SELECT p.id, p.publishable_key_hash,
                               ARRAY(SELECT o.origin FROM partner_embed_origins o WHERE o.partner_id = p.id) AS origins
                        FROM partners p WHERE p.publishable_key_hash = $1""")
                .execute(Tuple.of(Keys.hash(publishableKey)))
                .map(rows -> first(rows)
                        .filter(row -> Keys.matches(publishableKey, row.getString(1)))
                        .map(row -> new EmbedPartner(row.getValue(0).toString(), List.of(row.getArrayOfStrings(2)))));
    }

    /** Whether any partner allows this origin: all that an embed preflight, which has no key, can ask. */
    public Future<Boolean> anyPartnerAllowsOrigin(String origin) {
        return pool.preparedQuery("SELECT EXISTS (SELECT 1 FROM partner_embed_origins WHERE origin = $1)")
                .execute(Tuple.of(origin))
                .map(rows -> first(rows).map(row -> row.getBoolean(0)).orElse(false));
    }

    private static Optional<Row> first(RowSet<Row> rows) {
        var iterator = rows.iterator();
        return iterator.hasNext() ? Optional.of(iterator.next()) : Optional.empty();
    }

    /** {@code jdbc:postgresql://host:port/db?params} -> {@code postgresql://host:port/db} (JDBC-only parameters dropped). */
    static String reactiveUri(String jdbcUrl) {
        URI uri = URI.create(jdbcUrl.startsWith("jdbc:") ? jdbcUrl.substring("jdbc:".length()) : jdbcUrl);
        return uri.getScheme() + "://" + uri.getRawAuthority() + uri.getRawPath();
    }
}
