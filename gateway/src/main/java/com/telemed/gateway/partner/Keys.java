package com.telemed.gateway.partner;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;

/** Credential generation and hashing: keys leave only once, hashes are all that is stored. */
public final class Keys {

    public static final String API_KEY_PREFIX = "apx_";
    public static final String PUBLISHABLE_KEY_PREFIX = "pk_";
    private static final SecureRandom RANDOM = new SecureRandom();

    private Keys() {
    }

    /** {@code prefix} + 32 lowercase hex characters (128 random bits). */
    public static String generate(String prefix) {
        byte[] bytes = new byte[16];
        RANDOM.nextBytes(bytes);
        return prefix + HexFormat.of().formatHex(bytes);
    }

    public static String hash(String key) {
        return HexFormat.of().formatHex(sha256(key));
    }

    /** Compares a presented key with a stored hash in time independent of where they differ. */
    public static boolean matches(String presentedKey, String storedHash) {
        return MessageDigest.isEqual(sha256(presentedKey), HexFormat.of().parseHex(storedHash));
    }

    static byte[] sha256(String value) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JVM", e);
        }
    }
}
