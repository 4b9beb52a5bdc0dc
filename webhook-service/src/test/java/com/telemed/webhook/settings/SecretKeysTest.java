package com.telemed.webhook.settings;

import static com.telemed.webhook.settings.SecretCipherTest.key;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SecretKeysTest {

    private static List<String> ids(SecretKeys keys) {
        return keys.all().stream().map(SecretKeys.Key::id).toList();
    }

    private static String invalid(Optional<List<String>> entries, Optional<String> legacy) {
        return assertThrows(SecretKeys.Invalid.class, () -> SecretKeys.parse(entries, legacy)).getMessage();
    }

    @Test
    void theListInOrderThenTheOldSingleKeyAsLegacy() {
        SecretKeys keys = SecretKeys.parse(Optional.of(List.of("2025-06:" + key(2), " 2024.q1_a:" + key(1) + " ")),
                Optional.of(key(0)));
        assertEquals(List.of("2025-06", "2024.q1_a", "legacy"), ids(keys));
        assertEquals("2025-06", keys.current().id());
        assertTrue(keys.byId("legacy").orElseThrow().fromLegacySetting());
        assertFalse(keys.byId("2025-06").orElseThrow().fromLegacySetting());
        assertEquals(Optional.empty(), keys.byId("2023"));
        assertEquals(Optional.empty(), keys.byId(null));
    }

    /** An existing deployment keeps working with its old setting alone: its key encrypts and reads the old secrets. */
    @Test
    void theOldSingleKeyAloneStillWorks() {
        SecretKeys keys = SecretKeys.parse(Optional.empty(), Optional.of(key(5)));
        assertEquals(List.of("legacy"), ids(keys));
        assertEquals("legacy", keys.current().id());
    }

    @Test
    void theDevelopmentKeyIsRecognisedByItsBytes() {
        SecretKeys keys = SecretKeys.parse(Optional.of(List.of("mine:" + key(1), "other-name:" + SecretKeys.DEVELOPMENT_KEY)),
                Optional.empty());
        assertFalse(keys.byId("mine").orElseThrow().isDevelopmentKey());
        assertTrue(keys.byId("other-name").orElseThrow().isDevelopmentKey());
        // The same 32 bytes written without padding are still the development key.
        String unpadded = Base64.getEncoder().withoutPadding().encodeToString(Base64.getDecoder().decode(SecretKeys.DEVELOPMENT_KEY));
        assertTrue(SecretKeys.parse(Optional.empty(), Optional.of(unpadded)).current().isDevelopmentKey());
    }

    /** Errors name the setting and the entry, never the key. */
    @Test
    void malformedSettingsAreRefusedWithoutQuotingAKey() {
        assertEquals("webhook.secret-keys (WEBHOOK_SECRET_KEYS) is not set", invalid(Optional.empty(), Optional.empty()));
        assertEquals("webhook.secret-keys (WEBHOOK_SECRET_KEYS) entry 2 is not id:base64-of-32-bytes",
                invalid(Optional.of(List.of("a:" + key(1), key(2))), Optional.empty()));
        assertEquals("webhook.secret-keys (WEBHOOK_SECRET_KEYS) entry 1 has an id that is not 1 to 64 letters, digits, '.', '_' or '-'",
                invalid(Optional.of(List.of("bad id:" + key(1))), Optional.empty()));
        assertEquals("webhook.secret-keys (WEBHOOK_SECRET_KEYS) entry 2 repeats the id a",
                invalid(Optional.of(List.of("a:" + key(1), "a:" + key(2))), Optional.empty()));
        assertEquals("webhook.secret-keys (WEBHOOK_SECRET_KEYS) entry 1 (id a) must be 32 bytes (base64), got 16",
                invalid(Optional.of(List.of("a:" + Base64.getEncoder().encodeToString(new byte[16]))), Optional.empty()));
        assertEquals("webhook.secret-keys (WEBHOOK_SECRET_KEYS) entry 1 (id a) is not base64",
                invalid(Optional.of(List.of("a:not base64!")), Optional.empty()));
        assertEquals("webhook.secret-encryption-key (WEBHOOK_SECRET_ENCRYPTION_KEY) is not base64",
                invalid(Optional.empty(), Optional.of("not base64!")));
        assertEquals("webhook.secret-keys (WEBHOOK_SECRET_KEYS) names the id legacy, which is webhook.secret-encryption-key"
                        + " (WEBHOOK_SECRET_ENCRYPTION_KEY) when that is set: set one of the two",
                invalid(Optional.of(List.of("legacy:" + key(1))), Optional.of(key(2))));
        // Without the old setting, "legacy" is an id like another (an operator may move the old key into the list).
        assertEquals(List.of("new", "legacy"),
                ids(SecretKeys.parse(Optional.of(List.of("new:" + key(1), "legacy:" + key(2))), Optional.empty())));
    }
}
