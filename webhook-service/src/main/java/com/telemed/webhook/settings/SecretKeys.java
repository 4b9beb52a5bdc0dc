package com.telemed.webhook.settings;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import javax.crypto.spec.SecretKeySpec;

/**
 * The keys webhook secrets are encrypted with: {@code webhook.secret-keys} ({@code id:base64},
 * newest first) then, when set, the key of the old single setting {@code webhook.secret-encryption-key}
 * under the id {@value #LEGACY_ID}. The first key encrypts; each key decrypts the secrets stored
 * with its id. Errors name the setting and the entry, never a key.
 */
public final class SecretKeys {

    public static final String KEYS_PROPERTY = "webhook.secret-keys";
    public static final String KEYS_VARIABLE = "WEBHOOK_SECRET_KEYS";
    public static final String LEGACY_PROPERTY = "webhook.secret-encryption-key";
    public static final String LEGACY_VARIABLE = "WEBHOOK_SECRET_ENCRYPTION_KEY";

    /** The id of the key of {@link #LEGACY_PROPERTY}, and of every secret stored before key ids (migration V4). */
    public static final String LEGACY_ID = "legacy";

    /**
     * The key committed for development (profiles dev, test and local; under the ids {@code local}
     * and {@value #LEGACY_ID}): never accepted in production, in any position.
     */
    public static final String DEVELOPMENT_KEY = "bG9jYWwtZGVmYXVsdC1rZXktbm90LWEtc2VjcmV0ISE=";

    private static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
    private static final int KEY_BYTES = 32;

    /** A key and where it was configured ({@code fromLegacySetting}: the old single setting). */
    public record Key(String id, SecretKeySpec spec, boolean fromLegacySetting) {

        public boolean isDevelopmentKey() {
            return Arrays.equals(spec.getEncoded(), Base64.getDecoder().decode(DEVELOPMENT_KEY));
        }

        @Override
        public String toString() {
            return "Key[" + id + "]";
        }
    }

    /** The configuration cannot be used; the message names the setting and the entry, never a key. */
    public static final class Invalid extends IllegalStateException {
        Invalid(String message) {
            super(message);
        }
    }

    private final List<Key> keys;
    private final Map<String, Key> byId;

    private SecretKeys(List<Key> keys) {
        this.keys = List.copyOf(keys);
        Map<String, Key> map = new LinkedHashMap<>();
        keys.forEach(key -> map.put(key.id(), key));
        this.byId = map;
    }

    /** Reads the two settings; throws {@link Invalid} when neither is set or an entry is malformed. */
    public static SecretKeys parse(Optional<List<String>> entries, Optional<String> legacy) {
        List<Key> keys = new ArrayList<>();
        List<String> list = entries.orElse(List.of());
        for (int i = 0; i < list.size(); i++) {
            String entry = list.get(i).strip();
            int colon = entry.indexOf(':');
            String where = KEYS_PROPERTY + " (" + KEYS_VARIABLE + ") entry " + (i + 1);
            if (colon < 0) {
                throw new Invalid(where + " is not id:base64-of-32-bytes");
            }
            String id = entry.substring(0, colon);
            if (!ID.matcher(id).matches()) {
                throw new Invalid(where + " has an id that is not 1 to 64 letters, digits, '.', '_' or '-'");
            }
            if (keys.stream().anyMatch(key -> key.id().equals(id))) {
                throw new Invalid(where + " repeats the id " + id);
            }
            keys.add(new Key(id, key(entry.substring(colon + 1), where + " (id " + id + ")"), false));
        }
        if (legacy.isPresent() && !legacy.get().isBlank()) {
            if (keys.stream().anyMatch(key -> key.id().equals(LEGACY_ID))) {
                throw new Invalid(KEYS_PROPERTY + " (" + KEYS_VARIABLE + ") names the id " + LEGACY_ID + ", which is "
                        + LEGACY_PROPERTY + " (" + LEGACY_VARIABLE + ") when that is set: set one of the two");
            }
            keys.add(new Key(LEGACY_ID, key(legacy.get().strip(), LEGACY_PROPERTY + " (" + LEGACY_VARIABLE + ")"), true));
        }
        if (keys.isEmpty()) {
            throw new Invalid(KEYS_PROPERTY + " (" + KEYS_VARIABLE + ") is not set");
        }
        return new SecretKeys(keys);
    }

    private static SecretKeySpec key(String base64, String where) {
        byte[] raw;
        try {
            raw = Base64.getDecoder().decode(base64);
        } catch (IllegalArgumentException e) {
            throw new Invalid(where + " is not base64");
        }
        if (raw.length != KEY_BYTES) {
            throw new Invalid(where + " must be 32 bytes (base64), got " + raw.length);
        }
        SecretKeySpec spec = new SecretKeySpec(raw, "AES");
        Arrays.fill(raw, (byte) 0);
        return spec;
    }

    /** The key new secrets are encrypted with: the first. */
    public Key current() {
        return keys.get(0);
    }

    public Optional<Key> byId(String id) {
        return Optional.ofNullable(id == null ? null : byId.get(id));
    }

    /** Every key, in order (the current one first). */
    public List<Key> all() {
        return keys;
    }
}
