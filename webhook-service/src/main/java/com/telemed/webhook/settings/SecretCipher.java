package com.telemed.webhook.settings;

import com.telemed.webhook.config.WebhookConfig;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Webhook secrets at rest: AES-256-GCM, a random 12-byte nonce per encryption, the partner id as
 * associated data (a secret copied to another partner's row does not decrypt). Stored form:
 * nonce || ciphertext || tag. Secrets and keys are never logged and never in exception messages.
 */
@Singleton
public class SecretCipher {

    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;

    private final SecretKeySpec key;
    private final SecureRandom random = new SecureRandom();

    @Inject
    public SecretCipher(WebhookConfig config) {
        this(config.secretEncryptionKey());
    }

    SecretCipher(String base64Key) {
        byte[] raw;
        try {
            raw = Base64.getDecoder().decode(base64Key.trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("webhook.secret-encryption-key is not base64");
        }
        if (raw.length != 32) {
            throw new IllegalStateException("webhook.secret-encryption-key must be 32 bytes (base64), got " + raw.length);
        }
        this.key = new SecretKeySpec(raw, "AES");
        Arrays.fill(raw, (byte) 0);
    }

    /** A new secret: 64 lowercase hex characters from 32 SecureRandom bytes. */
    public String newSecret() {
        byte[] bytes = new byte[32];
        random.nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    public byte[] encrypt(String partnerId, String secret) {
        try {
            byte[] nonce = new byte[NONCE_BYTES];
            random.nextBytes(nonce);
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
            cipher.updateAAD(partnerId.getBytes(StandardCharsets.UTF_8));
            byte[] sealed = cipher.doFinal(secret.getBytes(StandardCharsets.UTF_8));
            return ByteBuffer.allocate(NONCE_BYTES + sealed.length).put(nonce).put(sealed).array();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("secret encryption failed: " + e.getClass().getName());
        }
    }

    public String decrypt(String partnerId, byte[] stored) {
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, stored, 0, NONCE_BYTES));
            cipher.updateAAD(partnerId.getBytes(StandardCharsets.UTF_8));
            byte[] plain = cipher.doFinal(stored, NONCE_BYTES, stored.length - NONCE_BYTES);
            return new String(plain, StandardCharsets.UTF_8);
        } catch (GeneralSecurityException e) {
            // Wrong key or tampered row: the class name only, never the bytes.
            throw new IllegalStateException("secret decryption failed: " + e.getClass().getName());
        }
    }
}
