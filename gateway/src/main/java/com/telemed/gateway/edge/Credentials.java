package com.telemed.gateway.edge;

import com.telemed.common.access.Principal;
import com.telemed.gateway.partner.Keys;
import io.quarkus.runtime.Startup;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The credential lookups every call makes, read fresh from the database each time so a rotation
 * holds on the very next call on every replica. They run once per call on the hot path, so they
 * use the non-blocking PostgreSQL client on the event loop that received the call: no hand-off to
 * a worker thread and back, no ORM session. The client pipelines the lookups of concurrent calls
 * over a few connections ({@code gateway.credential-pool-size}), so the database answers several
 * per wake-up; each call still sends its own query. It connects to the datasource Flyway and
 * Hibernate use, exactly as its JDBC URL says ({@link DatasourceConnections}: TLS mode, options,
 * every host), with its user and password; partner writes stay with
 * {@link com.telemed.gateway.partner.PartnerService}.
 */
@ApplicationScoped
@Startup
public class Credentials {

    /** A partner found by its publishable key, with the origins it allows. */
    public record EmbedPartner(String partnerId, List<String> origins) {
    }

    private final SqlClient client;

    /**
     * Made at startup, so a datasource URL the client cannot honour stops the gateway there, naming
     * the parameter, and not at the first call. Username and password are optional here: production
     * refuses to start without them first (platform-commons' {@code ProductionSettings}).
     */
    public Credentials(Vertx vertx, GatewayConfig config,
                       @ConfigProperty(name = "quarkus.datasource.jdbc.url") String jdbcUrl,
                       @ConfigProperty(name = "quarkus.datasource.username") Optional<String> username,
                       @ConfigProperty(name = "quarkus.datasource.password") Optional<String> password) {
        this.client = DatasourceConnections.client(vertx,
                DatasourceConnections.target(jdbcUrl, username.orElse(null), password.orElse(null)),
                config.credentialPoolSize());
    }

    @PreDestroy
    void close() {
        client.close();
    }

    /** The partner whose API key this is; the hash found is compared again in constant time. */
    public Future<Optional<String>> partnerForApiKey(String apiKey) {
        return client.preparedQuery("SELECT id, api_key_hash FROM partners WHERE api_key_hash = $1")
                .execute(Tuple.of(Keys.hash(apiKey)))
                .map(rows -> first(rows)
                        .filter(row -> Keys.matches(apiKey, row.getString(1)))
                        .map(row -> row.getValue(0).toString()));
    }

    public Future<Optional<EmbedPartner>> partnerForPublishableKey(String publishableKey) {
        return client.preparedQuery("""
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
        return client.preparedQuery("SELECT EXISTS (SELECT 1 FROM partner_embed_origins WHERE origin = $1)")
                .execute(Tuple.of(origin))
                .map(rows -> first(rows).map(row -> row.getBoolean(0)).orElse(false));
    }

    /**
     * The person a local account's session token ({@code ops_...}) authenticates: the session not
     * ended and not expired (by the database's clock), its account not deleted; with the account's
     * roles and prescriber. The hash found is compared again in constant time.
     */
    public Future<Optional<Principal>> personForSession(String token) {
        return client.preparedQuery("""
                        SELECT a.id, a.prescriber_id, s.token_hash,
                               ARRAY(SELECT r.role FROM account_roles r WHERE r.account_id = a.id) AS roles
                        FROM sessions s JOIN accounts a ON a.id = s.account_id
                        WHERE s.token_hash = $1 AND s.ended_at IS NULL AND s.expires_at > now() AND a.deleted_at IS NULL""")
                .execute(Tuple.of(Keys.hash(token)))
                .map(rows -> first(rows)
                        .filter(row -> Keys.matches(token, row.getString(2)))
                        .map(row -> Principal.person(row.getUUID(0).toString(), roles(row.getArrayOfStrings(3)),
                                Optional.ofNullable(row.getUUID(1)).map(UUID::toString))));
    }

    /** The pharmacy a pharmacy key ({@code phk_...}) that is not revoked authenticates. */
    public Future<Optional<Principal>> pharmacyForKey(String key) {
        return client.preparedQuery(
                        "SELECT pharmacy_id, key_hash FROM pharmacy_credentials WHERE key_hash = $1 AND revoked_at IS NULL")
                .execute(Tuple.of(Keys.hash(key)))
                .map(rows -> first(rows)
                        .filter(row -> Keys.matches(key, row.getString(1)))
                        .map(row -> Principal.pharmacy(row.getString(0))));
    }

    private static EnumSet<Principal.Role> roles(String[] names) {
        EnumSet<Principal.Role> roles = EnumSet.noneOf(Principal.Role.class);
        for (String name : names) {
            Principal.Role.of(name).ifPresent(roles::add);
        }
        return roles;
    }

    private static Optional<Row> first(RowSet<Row> rows) {
        var iterator = rows.iterator();
        return iterator.hasNext() ? Optional.of(iterator.next()) : Optional.empty();
    }

}
