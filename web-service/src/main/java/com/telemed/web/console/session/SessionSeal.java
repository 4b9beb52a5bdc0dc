package com.telemed.web.console.session;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The console's cookie value: a {@link ConsoleSession} sealed with AES-256-GCM (JDK {@code javax.crypto}),
 * so the browser can neither read it (it holds the gateway's session token) nor change it.
 *
 * <p>Value: base64url without padding of {@code version (1) | nonce (12 random bytes) | ciphertext and
 * 16-byte tag}, the cookie's name as associated data. Keys: each configured key (at least
 * {@value #MIN_KEY_LENGTH} characters) becomes an AES key as {@code HMAC-SHA256(key, "telemed console
 * session v1")}; the first seals, every one opens. {@link #open} answers empty for anything it cannot
 * trust: not base64, another version, a tag that does not verify (tampered, another key), an unreadable
 * payload, or a session past its idle or absolute limit. Pure: no CDI, no I/O.
 */
public final class SessionSeal {

    public static final int MIN_KEY_LENGTH = 32;
    private static final byte VERSION = 1;
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final byte[] ASSOCIATED = SessionCookies.NAME.getBytes(StandardCharsets.US_ASCII);
    private static final byte[] KEY_LABEL = "telemed console session v1".getBytes(StandardCharsets.US_ASCII);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final List<SecretKey> keys;
    private final Duration idleTimeout;
    private final Duration maxAge;
    private final Clock clock;
    private final SecureRandom random = new SecureRandom();

    public SessionSeal(List<String> keys, Duration idleTimeout, Duration maxAge, Clock clock) {
        if (keys == null || keys.isEmpty()) {
            throw new IllegalArgumentException("web.console.session-key: at least one key is required");
        }
        for (String key : keys) {
            // Never the key itself in a message: only its length.
            if (key == null || key.strip().length() < MIN_KEY_LENGTH) {
                throw new IllegalArgumentException("web.console.session-key: every key needs at least " + MIN_KEY_LENGTH
                        + " characters (one has " + (key == null ? 0 : key.strip().length()) + ")");
            }
        }
        this.keys = keys.stream().map(SessionSeal::aesKey).toList();
        this.idleTimeout = idleTimeout;
        this.maxAge = maxAge;
        this.clock = clock;
    }

    public String seal(ConsoleSession session) {
        try {
            byte[] nonce = new byte[NONCE_BYTES];
            random.nextBytes(nonce);
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, keys.get(0), new GCMParameterSpec(TAG_BITS, nonce));
            cipher.updateAAD(ASSOCIATED);
            byte[] sealed = cipher.doFinal(JSON.writeValueAsBytes(Payload.of(session)));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(
                    ByteBuffer.allocate(1 + NONCE_BYTES + sealed.length).put(VERSION).put(nonce).put(sealed).array());
        } catch (GeneralSecurityException | java.io.IOException e) {
            throw new IllegalStateException("the console session cannot be sealed: " + e.getClass().getName());
        }
    }

    /** The session the value holds while it is within its limits; empty for anything else. */
    public Optional<ConsoleSession> open(String value) {
        Optional<ConsoleSession> session = unseal(value);
        Instant now = clock.instant();
        return session.filter(found -> now.isBefore(found.signedInAt().plus(maxAge))
                && now.isBefore(found.lastSeenAt().plus(idleTimeout))
                && (found.expiresAt() == null || now.isBefore(found.expiresAt())));
    }

    private Optional<ConsoleSession> unseal(String value) {
        if (value == null || value.isEmpty() || value.length() > 8192) {
            return Optional.empty();
        }
        byte[] raw;
        try {
            raw = Base64.getUrlDecoder().decode(value);
        } catch (IllegalArgumentException notBase64) {
            return Optional.empty();
        }
        if (raw.length < 1 + NONCE_BYTES + TAG_BITS / 8 || raw[0] != VERSION) {
            return Optional.empty();
        }
        for (SecretKey key : keys) {
            try {
                Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
                cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, raw, 1, NONCE_BYTES));
                cipher.updateAAD(ASSOCIATED);
                byte[] plain = cipher.doFinal(raw, 1 + NONCE_BYTES, raw.length - 1 - NONCE_BYTES);
                return Optional.ofNullable(JSON.readValue(plain, Payload.class).session());
            } catch (GeneralSecurityException wrongKeyOrTampered) {
                // The next key, if any.
            } catch (java.io.IOException | RuntimeException unreadable) {
                return Optional.empty();
            }
        }
        return Optional.empty();
    }

    private static SecretKey aesKey(String secret) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.strip().getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return new SecretKeySpec(mac.doFinal(KEY_LABEL), "AES");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is unavailable", e);
        }
    }

    /**
     * The sealed JSON: short names, instants as epoch milliseconds (no Jackson module needed); {@code x} the
     * token's own expiry (an OpenID Connect access token's {@code exp}), absent for the gateway's sessions.
     */
    record Payload(String t, String a, String n, List<String> r, String p, String c, long s, long l, Long x) {

        static Payload of(ConsoleSession session) {
            return new Payload(session.token(), session.accountId(), session.name(), session.roles(), session.prescriberId(),
                    session.csrf(), session.signedInAt().toEpochMilli(), session.lastSeenAt().toEpochMilli(),
                    session.expiresAt() == null ? null : session.expiresAt().toEpochMilli());
        }

        ConsoleSession session() {
            if (t == null || a == null || c == null) {
                return null;
            }
            return new ConsoleSession(t, a, n, r, p, c, Instant.ofEpochMilli(s), Instant.ofEpochMilli(l),
                    x == null ? null : Instant.ofEpochMilli(x));
        }
    }
}
