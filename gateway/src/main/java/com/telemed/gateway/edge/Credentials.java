package com.telemed.gateway.edge;

import com.telemed.gateway.partner.Keys;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/**
 * The credential lookups every call makes, read fresh from the database each time so a rotation
 * holds on the very next call on every replica. They run once per call on the hot path, so they
 * are single indexed statements on plain JDBC rather than ORM sessions and transactions; partner
 * writes stay with {@link com.telemed.gateway.partner.PartnerService}.
 */
@ApplicationScoped
public class Credentials {

    /** A partner found by its publishable key, with the origins it allows. */
    public record EmbedPartner(String partnerId, List<String> origins) {
    }

    private final AgroalDataSource dataSource;

    public Credentials(AgroalDataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** The partner whose API key this is; the hash found is compared again in constant time. */
    public Optional<String> partnerForApiKey(String apiKey) throws SQLException {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement query = connection.prepareStatement(
                     "SELECT id, api_key_hash FROM partners WHERE api_key_hash = ?")) {
            query.setString(1, Keys.hash(apiKey));
            try (ResultSet row = query.executeQuery()) {
                return row.next() && Keys.matches(apiKey, row.getString(2))
                        ? Optional.of(row.getString(1)) : Optional.empty();
            }
        }
    }

    public Optional<EmbedPartner> partnerForPublishableKey(String publishableKey) throws SQLException {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement query = connection.prepareStatement("""
                     SELECT p.id, p.publishable_key_hash,
                            ARRAY(SELECT o.origin FROM partner_embed_origins o WHERE o.partner_id = p.id) AS origins
                     FROM partners p WHERE p.publishable_key_hash = ?""")) {
            query.setString(1, Keys.hash(publishableKey));
            try (ResultSet row = query.executeQuery()) {
                if (!row.next() || !Keys.matches(publishableKey, row.getString(2))) {
                    return Optional.empty();
                }
                Array origins = row.getArray(3);
                return Optional.of(new EmbedPartner(row.getString(1), List.of((String[]) origins.getArray())));
            }
        }
    }

    /** Whether any partner allows this origin: all that an embed preflight, which has no key, can ask. */
    public boolean anyPartnerAllowsOrigin(String origin) throws SQLException {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement query = connection.prepareStatement(
                     "SELECT EXISTS (SELECT 1 FROM partner_embed_origins WHERE origin = ?)")) {
            query.setString(1, origin);
            try (ResultSet row = query.executeQuery()) {
                return row.next() && row.getBoolean(1);
            }
        }
    }
}
