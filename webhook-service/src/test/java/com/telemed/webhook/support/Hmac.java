package com.telemed.webhook.support;

import java.nio.charset.StandardCharsets;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** The receiver's side of the contract, written independently of the service's signer. */
public final class Hmac {

    private Hmac() {
    }

    public static String expectedSignature(String secret, String timestampHeader, byte[] rawBody) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            mac.update((timestampHeader + ".").getBytes(StandardCharsets.UTF_8));
            byte[] digest = mac.doFinal(rawBody);
            StringBuilder hex = new StringBuilder("sha256=");
            for (byte b : digest) {
                hex.append(String.format("%02x", b));
            }
            return hex.toString();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
