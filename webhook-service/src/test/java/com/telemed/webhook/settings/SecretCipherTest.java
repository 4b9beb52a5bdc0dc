package com.telemed.webhook.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SecretCipherTest {

    static String key(int first) {
        byte[] raw = new byte[32];
        raw[0] = (byte) first;
        return Base64.getEncoder().encodeToString(raw);
    }

    static SecretCipher cipher(String... entries) {
        return new SecretCipher(SecretKeys.parse(Optional.of(List.of(entries)), Optional.empty()));
    }

    private final SecretCipher cipher = cipher("k1:" + key(1));

    @Test
    void secretsAre64LowercaseHexAndFresh() {
        String a = cipher.newSecret();
        String b = cipher.newSecret();
        assertTrue(a.matches("[0-9a-f]{64}"), a);
        assertNotEquals(a, b);
    }

    @Test
    void roundTripsWithTheKeyIdAndWithoutTheSecretInTheStoredBytes() {
        String secret = cipher.newSecret();
        SecretCipher.Sealed stored = cipher.encrypt("partner-1", secret);
        assertEquals("k1", stored.keyId());
        assertEquals(secret, cipher.decrypt("partner-1", "k1", stored.bytes()));
        assertFalse(new String(stored.bytes(), StandardCharsets.ISO_8859_1).contains(secret));
        assertEquals(12 + 64 + 16, stored.bytes().length);
        assertFalse(Arrays.equals(stored.bytes(), cipher.encrypt("partner-1", secret).bytes()), "fresh nonce every time");
    }

    /** The first key encrypts; every key decrypts what was stored with its id. */
    @Test
    void aNewKeyFirstEncryptsWhileTheOlderOnesStillDecrypt() {
        SecretCipher before = cipher("k1:" + key(1));
        SecretCipher.Sealed old = before.encrypt("partner-1", "old-secret");
        SecretCipher after = cipher("k2:" + key(2), "k1:" + key(1));
        assertEquals("old-secret", after.decrypt("partner-1", "k1", old.bytes()));
        SecretCipher.Sealed fresh = after.encrypt("partner-1", "new-secret");
        assertEquals("k2", fresh.keyId());
        assertEquals("k2", after.currentKeyId());
        assertEquals("new-secret", after.decrypt("partner-1", "k2", fresh.bytes()));
        // The old configuration cannot read what the new key wrote: the failure names partner and key id only.
        UnreadableSecret unreadable = assertThrows(UnreadableSecret.class, () -> before.decrypt("partner-1", "k2", fresh.bytes()));
        assertEquals("webhook secret of partner partner-1 (key id k2) cannot be read: no such key configured",
                unreadable.getMessage());
        assertEquals(Optional.empty(), before.readable("partner-1", "k2", fresh.bytes()));
    }

    @Test
    void boundToThePartnerTheKeyAndTheBytes() {
        byte[] stored = cipher.encrypt("partner-1", cipher.newSecret()).bytes();
        assertEquals("webhook secret of partner partner-2 (key id k1) cannot be read: javax.crypto.AEADBadTagException",
                assertThrows(UnreadableSecret.class, () -> cipher.decrypt("partner-2", "k1", stored)).getMessage());
        SecretCipher other = cipher("k1:" + key(7));
        assertThrows(UnreadableSecret.class, () -> other.decrypt("partner-1", "k1", stored));
        byte[] tampered = stored.clone();
        tampered[20] ^= 1;
        assertThrows(UnreadableSecret.class, () -> cipher.decrypt("partner-1", "k1", tampered));
        assertThrows(UnreadableSecret.class, () -> cipher.decrypt("partner-1", "k1", new byte[3]));
        assertThrows(UnreadableSecret.class, () -> cipher.decrypt("partner-1", null, stored));
    }
}
