package com.telemed.gateway.edge;

import com.telemed.common.access.Principal;
import com.telemed.common.id.Ids;
import com.telemed.common.json.Timestamps;
import com.telemed.gateway.identity.OidcTokens;
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
import java.time.ZoneOffset;
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

    /**
     * Whether the gateway knows this partner, by its id exactly as the gateway spells it (a UUID in
     * lowercase, as {@code X-Partner-Id} carries it; a service keys its settings by that text): the
     * edge's check of a partner setting before it is forwarded. Anything else is no partner, asked
     * without a query.
     */
    public Future<Boolean> knowsPartner(String partnerId) {
        Optional<UUID> id = Ids.uuid(partnerId).filter(uuid -> uuid.toString().equals(partnerId));
        if (id.isEmpty()) {
            return Future.succeededFuture(false);
        }
        return client.preparedQuery("SELECT EXISTS (SELECT 1 FROM partners WHERE id = $1)")
                .execute(Tuple.of(id.get()))
                .map(rows -> first(rows).map(row -> row.getBoolean(0)).orElse(false));
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

    /**
     * The person an OpenID Connect token names (verified by {@link OidcTokens}): the account whose
     * prescriber is the token's {@code prescriber_id}, else the one whose email (any letter case) is
     * the token's verified email, as {@code person:<accountId>:<the token's roles>:<prescriberId>}.
     * A deleted account is refused, and never replaced: its person stays out until an admin creates
     * an account for them again. An account found by its email that names another prescriber than the
     * token does (or none while the token names one) is refused too: two records of one person that
     * disagree. None found: one is provisioned without a password (it signs in only through the
     * provider), its roles the token's person roles, so every audit entry names an account; a token
     * without a verified email provisions nothing and is refused. Two calls provisioning the same
     * person at once make one account: the unique indexes decide, and the other call reads it.
     */
    public Future<Optional<Principal>> personForToken(OidcTokens.VerifiedPerson person) {
        return accountForToken(person).compose(found -> {
            if (found.isPresent() || person.verifiedEmail().isEmpty()) {
                return Future.succeededFuture(found.flatMap(account -> principal(account, person)));
            }
            return provision(person)
                    .compose(ignored -> accountForToken(person))
                    .map(again -> again.flatMap(account -> principal(account, person)));
        });
    }

    private record TokenAccount(UUID id, UUID prescriberId, boolean deleted) {
    }

    /** The account a token names: a live one first, by prescriber before email; else the last deleted one. */
    private Future<Optional<TokenAccount>> accountForToken(OidcTokens.VerifiedPerson person) {
        UUID prescriberId = person.prescriberId().orElse(null);
        String email = person.verifiedEmail().orElse(null);
        if (prescriberId == null && email == null) {
            return Future.succeededFuture(Optional.empty());
        }
        return client.preparedQuery("""
                        SELECT id, prescriber_id, deleted_at IS NOT NULL
                        FROM accounts
                        WHERE prescriber_id = $1 OR lower(email) = lower($2)
                        ORDER BY deleted_at IS NOT NULL, prescriber_id IS NOT DISTINCT FROM $1 DESC, deleted_at DESC
                        LIMIT 1""")
                .execute(Tuple.of(prescriberId, email))
                .map(rows -> first(rows).map(row -> new TokenAccount(row.getUUID(0), row.getUUID(1), row.getBoolean(2))));
    }

    private static Optional<Principal> principal(TokenAccount account, OidcTokens.VerifiedPerson person) {
        if (account.deleted()) {
            return Optional.empty();
        }
        if (person.prescriberId().isPresent() && !person.prescriberId().get().equals(account.prescriberId())) {
            return Optional.empty();
        }
        return Optional.of(Principal.person(account.id().toString(), person.roles(),
                Optional.ofNullable(account.prescriberId()).map(UUID::toString)));
    }

    /**
     * A new account for the token's person, with its roles, in one statement; nothing when a live
     * account already has its email or prescriber (ON CONFLICT DO NOTHING: no error, nothing logged
     * that could quote the email). A person's roles only: {@code pharmacy} is a pharmacy key's. Its audit
     * entry ({@code account.provision}, the person as actor) is written by the same statement.
     */
    private Future<Void> provision(OidcTokens.VerifiedPerson person) {
        String[] roles = person.roles().stream().filter(role -> role != Principal.Role.PHARMACY)
                .map(Principal.Role::wire).toArray(String[]::new);
        return client.preparedQuery("""
                        WITH account AS (
                            INSERT INTO accounts (id, email, name, prescriber_id, password_hash, created_at)
                            VALUES ($1, $2, $3, $4, NULL, $5)
                            ON CONFLICT DO NOTHING
                            RETURNING id),
                        roles AS (
                            INSERT INTO account_roles (account_id, role)
                            SELECT account.id, role FROM account, unnest($6::text[]) AS role),
                        audit AS (
                            INSERT INTO audit_entries (id, at, actor_type, actor_id, action, target_type, target_id, partner_id)
                            SELECT $7, $5, 'person', account.id::text, 'account.provision', 'account', account.id::text, NULL
                            FROM account)
                        SELECT id FROM account""")
                .execute(Tuple.of(UUID.randomUUID(), person.verifiedEmail().orElseThrow(), person.name(),
                        person.prescriberId().orElse(null), Timestamps.now().atOffset(ZoneOffset.UTC), roles, UUID.randomUUID()))
                .mapEmpty();
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
