package com.telemed.webhook.settings;

/**
 * A stored webhook secret that cannot be decrypted: its key id is not configured (a key removed
 * too early, a replica without the newest key) or the bytes do not authenticate under that key.
 * Carries the partner and key id for the log; never the bytes, the secret or a key.
 */
public final class UnreadableSecret extends RuntimeException {

    private final String partnerId;
    private final String keyId;

    public UnreadableSecret(String partnerId, String keyId, String reason) {
        super("webhook secret of partner " + partnerId + " (key id " + keyId + ") cannot be read: " + reason, null,
                false, false);
        this.partnerId = partnerId;
        this.keyId = keyId;
    }

    public String partnerId() {
        return partnerId;
    }

    public String keyId() {
        return keyId;
    }
}
