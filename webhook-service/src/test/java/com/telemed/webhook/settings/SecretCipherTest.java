package com.telemed.webhook.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class SecretCipherTest {

    private static final String KEY = Base64.getEncoder().encodeToString(new byte[32]);
    private final SecretCipher cipher = new SecretCipher(KEY);

    @Test
    void secretsAre64LowercaseHexAndFresh() {
        String a = cipher.newSecret();
        String b = cipher.newSecret();
        assertTrue(a.matches("[0-9a-f]{64}"), a);
        assertNotEquals(a, b);
    }

    @Test
    void roundTripsWithoutTheSecretInTheStoredBytes() {
        String secret = cipher.newSecret();
        byte[] stored = cipher.encrypt("partner-1", secret);
        assertEquals(secret, cipher.decrypt("partner-1", stored));
        assertFalse(new String(stored, StandardCharsets.ISO_8859_1).contains(secret));
        assertEquals(12 + 64 + 16, stored.length);
        assertFalse(java.util.Arrays.equals(stored, cipher.encrypt("partner-1", secret)), "fresh nonce every time");
    }

    @Test
    void boundToThePartnerAndTheKey() {
        byte[] stored = cipher.encrypt("partner-1", cipher.newSecret());
        assertThrows(IllegalStateException.class, () -> cipher.decrypt("partner-2", stored));
        byte[] otherKey = new byte[32];
        otherKey[0] = 1;
        SecretCipher other = new SecretCipher(Base64.getEncoder().encodeToString(otherKey));
        assertThrows(IllegalStateException.class, () -> other.decrypt("partner-1", stored));
        stored[20] ^= 1;
        assertThrows(IllegalStateException.class, () -> cipher.decrypt("partner-1", stored));
    }

    @Test
    void refusesKeysThatAreNot32Bytes() {
        assertThrows(IllegalStateException.class, () -> new SecretCipher(Base64.getEncoder().encodeToString(new byte[16])));
        assertThrows(IllegalStateException.class, () -> new SecretCipher("not base64!"));
    }
}
