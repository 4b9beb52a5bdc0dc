package com.telemed.webhook.settings;

import com.telemed.common.audit.AuditTrail;
import com.telemed.common.json.Timestamps;
import io.agroal.api.AgroalDataSource;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.inject.Singleton;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * The operator's step of a key rotation: every stored webhook secret is decrypted with the key of
 * its id and, when that is not the current (first) key, encrypted again with the current key and
 * stored with its id. Secrets that cannot be decrypted (their key is not configured, or the bytes
 * do not authenticate) are counted, logged with partner and key id, and left as they are. Once it
 * answers {@code unreadable: 0}, every secret is on the current key and the older keys can go.
 *
 * <p>Pages of {@value #PAGE} rows by partner id, each row written on its own with a compare-and-set
 * on the stored bytes: a rotation or first save racing it wins (its row is already on a current
 * key) and is left alone; nothing is locked for longer than one row's update. Safe to run again,
 * and on several replicas at once.
 *
 * <p>Audited {@code webhook_secret.re_encrypt} (no target: every partner's secret). Its rows are written
 * one by one, each on its own, so there is no one transaction of the change: the entry is written in a
 * short transaction of its own before the first secret is touched. No re-encryption runs without its
 * entry, and an audit write that fails changes nothing.
 */
@Singleton
public class SecretReEncryption {

    private static final Logger LOG = Logger.getLogger(SecretReEncryption.class);
    static final int PAGE = 500;

    static final String PAGE_QUERY = "SELECT partner_id, secret_key_id, secret_encrypted FROM webhook_settings"
            + " WHERE secret_encrypted IS NOT NULL AND partner_id > ? ORDER BY partner_id LIMIT " + PAGE;

    static final String REPLACE = "UPDATE webhook_settings SET secret_encrypted = ?, secret_key_id = ?, updated_at = ?"
            + " WHERE partner_id = ? AND secret_encrypted = ?";

    /** What one run did: secrets moved to the current key, and secrets that cannot be read (any key). */
    public record Result(int reEncrypted, int unreadable) {
    }

    private record Row(String partnerId, String keyId, byte[] encrypted) {
    }

    private final AgroalDataSource dataSource;
    private final SecretCipher cipher;
    private final AuditTrail audit;

    public SecretReEncryption(AgroalDataSource dataSource, SecretCipher cipher, AuditTrail audit) {
        this.dataSource = dataSource;
        this.cipher = cipher;
        this.audit = audit;
    }

    public Result run() throws SQLException {
        QuarkusTransaction.requiringNew().run(() -> audit.record("webhook_secret.re_encrypt", "webhook_secret", null, null));
        String current = cipher.currentKeyId();
        int reEncrypted = 0;
        int unreadable = 0;
        try (Connection connection = dataSource.getConnection();
             PreparedStatement page = connection.prepareStatement(PAGE_QUERY);
             PreparedStatement replace = connection.prepareStatement(REPLACE)) {
            connection.setAutoCommit(true);
            String after = "";
            while (true) {
                List<Row> rows = new ArrayList<>();
                page.setString(1, after);
                try (ResultSet result = page.executeQuery()) {
                    while (result.next()) {
                        rows.add(new Row(result.getString(1), result.getString(2), result.getBytes(3)));
                    }
                }
                for (Row row : rows) {
                    String secret;
                    try {
                        secret = cipher.decrypt(row.partnerId(), row.keyId(), row.encrypted());
                    } catch (UnreadableSecret failure) {
                        unreadable++;
                        cipher.logUnreadable(failure);
                        continue;
                    }
                    if (current.equals(row.keyId())) {
                        continue;
                    }
                    SecretCipher.Sealed sealed = cipher.encrypt(row.partnerId(), secret);
                    replace.setBytes(1, sealed.bytes());
                    replace.setString(2, sealed.keyId());
                    replace.setTimestamp(3, Timestamp.from(Timestamps.now()));
                    replace.setString(4, row.partnerId());
                    replace.setBytes(5, row.encrypted());
                    reEncrypted += replace.executeUpdate();
                }
                if (rows.size() < PAGE) {
                    break;
                }
                after = rows.get(rows.size() - 1).partnerId();
            }
        }
        LOG.infof("Webhook secrets re-encrypted with key id %s: %d; unreadable: %d", current, reEncrypted, unreadable);
        return new Result(reEncrypted, unreadable);
    }
}
