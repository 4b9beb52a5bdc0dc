package com.telemed.webhook.delivery;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.Objects;
import java.util.UUID;

/**
 * One attempt to make: everything the POST needs, as stored. {@code url} is the partner's URL at
 * claim time (null when the partner cleared it since); {@code roundAttempts} are the attempts made
 * before this one since creation or the last redelivery.
 *
 * <p>A delivery is signed by its first attempt (of its round, after a redelivery), not when it is
 * stored: until then {@code signedAt} and {@code signature} are null and {@code secret} holds the
 * partner's secret as read with the delivery (intake, claim or redelivery), for {@link #signedAt}.
 * Once signed, the secret is dropped and the timestamp and signature are recorded with that attempt,
 * so every later attempt (a claim reads them back) sends exactly the same headers.
 *
 * <p>{@code body} is the stored body's UTF-8 bytes, encoded once when the job is made (issue 44): the signature
 * and the POST both use these bytes (each encoded the text again before, 2 encodings per first attempt).
 */
public record Job(UUID id, String partnerId, String url, byte[] body, String signedAt, String signature,
                  String secret, boolean secretUnreadable, int roundAttempts) {

    /** A delivery whose timestamp and signature are stored: every attempt reuses them. */
    public static Job signed(UUID id, String partnerId, String url, String body, String signedAt, String signature,
                             int roundAttempts) {
        return new Job(id, partnerId, url, utf8(body), signedAt, signature, null, false, roundAttempts);
    }

    /** A delivery not attempted yet (in this round): its first attempt signs it with {@code secret}. */
    public static Job unsigned(UUID id, String partnerId, String url, String body, String secret, int roundAttempts) {
        return new Job(id, partnerId, url, utf8(body), null, null, secret, false, roundAttempts);
    }

    /**
     * A delivery not signed yet whose partner's secret could not be decrypted when it was read: its
     * attempt fails without a connection ({@code webhook secret unreadable}), as a failed attempt
     * (retried, so a replica that has the key, or a rotation, can still deliver it), and no other
     * partner's delivery is held up by it.
     */
    public static Job unreadableSecret(UUID id, String partnerId, String url, String body, int roundAttempts) {
        return new Job(id, partnerId, url, utf8(body), null, null, null, true, roundAttempts);
    }

    private static byte[] utf8(String body) {
        return body.getBytes(StandardCharsets.UTF_8);
    }

    public boolean isSigned() {
        return signature != null;
    }

    /**
     * This job signed at {@code at} (X-Webhook-Timestamp: its unix seconds) with its secret; itself
     * when already signed. Null secret (never expected: a URL is never set without a secret) stays unsigned.
     */
    public Job signedAt(Instant at) {
        if (isSigned() || secret == null) {
            return this;
        }
        String timestamp = Signatures.timestamp(at);
        return new Job(id, partnerId, url, body, timestamp, Signatures.sign(secret, timestamp, body), null, false, roundAttempts);
    }

    /** By value, the body's bytes included (a record compares an array by identity). */
    @Override
    public boolean equals(Object other) {
        return other instanceof Job job && id.equals(job.id) && Objects.equals(partnerId, job.partnerId)
                && Objects.equals(url, job.url) && Arrays.equals(body, job.body) && Objects.equals(signedAt, job.signedAt)
                && Objects.equals(signature, job.signature) && Objects.equals(secret, job.secret)
                && secretUnreadable == job.secretUnreadable && roundAttempts == job.roundAttempts;
    }

    @Override
    public int hashCode() {
        return 31 * Objects.hash(id, partnerId, url, signedAt, signature, secret, secretUnreadable, roundAttempts)
                + Arrays.hashCode(body);
    }

    @Override
    public String toString() {
        // Never the body (patient data), the URL nor the secret.
        return "Job[" + id + "]";
    }
}
