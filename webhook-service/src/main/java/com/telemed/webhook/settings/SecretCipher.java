package com.telemed.webhook.settings;

import com.telemed.webhook.WebhookConfig;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import org.jboss.logging.Logger;

/**
 * Webhook secrets at rest: AES-256-GCM, a random 12-byte nonce per encryption, the partner id as
 * associated data (a secret copied to another partner's row does not decrypt). Stored form:
 * nonce || ciphertext || tag, beside the id of the key that encrypted it ({@link SecretKeys}: the
 * first configured key encrypts, each key decrypts its own secrets). Secrets and keys are never
 * logged and never in exception messages.
 */
@Singleton
public class SecretCipher {

    private static final Logger LOG = Logger.getLogger(SecretCipher.class);
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final long REPEAT_LOG_MS = 60_000;

    /** A secret as stored: the key's id and nonce || ciphertext || tag. */
    public record Sealed(String keyId, byte[] bytes) {
        @Override
        public String toString() {
            return "Sealed[" + keyId + "]";
        }
    }

    private final SecretKeys keys;
    private final SecureRandom random = new SecureRandom();
    /** When each unreadable (partner, key id) was last logged: once a minute each, not once per delivery. */
    private final Map<String, Long> unreadableLogged = new ConcurrentHashMap<>();

    @Inject
    public SecretCipher(WebhookConfig config) {
        this(SecretKeys.parse(config.secretKeys(), config.secretEncryptionKey()));
    }

    public SecretCipher(SecretKeys keys) {
        this.keys = keys;
    }

    /** A new secret: 64 lowercase hex characters from 32 SecureRandom bytes. */
    public String newSecret() {
        byte[] bytes = new byte[32];
        random.nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    /** The id new secrets are stored with. */
    public String currentKeyId() {
        return keys.current().id();
    }

    /** Encrypts with the current (first) key. */
    public Sealed encrypt(String partnerId, String secret) {
        SecretKeys.Key key = keys.current();
        try {
            byte[] nonce = new byte[NONCE_BYTES];
            random.nextBytes(nonce);
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, key.spec(), new GCMParameterSpec(TAG_BITS, nonce));
            cipher.updateAAD(partnerId.getBytes(StandardCharsets.UTF_8));
            byte[] sealed = cipher.doFinal(secret.getBytes(StandardCharsets.UTF_8));
            return new Sealed(key.id(), ByteBuffer.allocate(NONCE_BYTES + sealed.length).put(nonce).put(sealed).array());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("secret encryption failed: " + e.getClass().getName());
        }
    }

    /** The secret stored with {@code keyId}; throws {@link UnreadableSecret} when that key is not configured or the bytes do not authenticate. */
    public String decrypt(String partnerId, String keyId, byte[] stored) {
        SecretKeys.Key key = keys.byId(keyId).orElseThrow(() -> new UnreadableSecret(partnerId, keyId, "no such key configured"));
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, key.spec(), new GCMParameterSpec(TAG_BITS, stored, 0, NONCE_BYTES));
            cipher.updateAAD(partnerId.getBytes(StandardCharsets.UTF_8));
            byte[] plain = cipher.doFinal(stored, NONCE_BYTES, stored.length - NONCE_BYTES);
            return new String(plain, StandardCharsets.UTF_8);
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            // Wrong key or tampered row: the class name only, never the bytes.
            throw new UnreadableSecret(partnerId, keyId, e.getClass().getName());
        }
    }

    /**
     * The secret, or empty when it cannot be read: then logged (partner and key id, at most once a
     * minute each) and the caller fails that partner's deliveries alone.
     */
    public Optional<String> readable(String partnerId, String keyId, byte[] stored) {
        try {
            return Optional.of(decrypt(partnerId, keyId, stored));
        } catch (UnreadableSecret unreadable) {
            logUnreadable(unreadable);
            return Optional.empty();
        }
    }

    /** One warning per partner and key id a minute; the message has no secret, key or stored bytes. */
    public void logUnreadable(UnreadableSecret unreadable) {
        long now = System.currentTimeMillis();
        String key = unreadable.partnerId() + "\u0000" + unreadable.keyId();
        Long last = unreadableLogged.get(key);
        if (last == null || now - last >= REPEAT_LOG_MS) {
            unreadableLogged.put(key, now);
            LOG.warnf("The %s; its deliveries fail (other partners' go on) until that key is configured again"
                    + " or the partner's secret is rotated", unreadable.getMessage());
        }
    }
}
