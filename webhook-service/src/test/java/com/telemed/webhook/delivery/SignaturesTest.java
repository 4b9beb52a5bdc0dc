package com.telemed.webhook.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.time.Instant;
import java.util.UUID;

import org.junit.jupiter.api.Test;

class SignaturesTest {

    static final String SECRET = "0f1e2d3c4b5a69788796a5b4c3d2e1f00112233445566778899aabbccddeeff";
    static final String TIMESTAMP = "1700000000";
    // Non-ASCII on purpose: the body is signed as its UTF-8 bytes.
    static final String BODY = "{\"event\":\"item.approved\",\"requestId\":\"r-1\",\"patientName\":\"Zoë Ångström\","
            + "\"timestamp\":\"2026-11-21T09:30:00.000Z\"}";

    /**
     * Vector produced with the real openssl (UTF-8 terminal):
     * <pre>
     * printf '%s' '1700000000.{"event":"item.approved","requestId":"r-1","patientName":"Zoë Ångström","timestamp":"2026-11-21T09:30:00.000Z"}' \
     *   | openssl dgst -sha256 -hmac '0f1e2d3c4b5a69788796a5b4c3d2e1f00112233445566778899aabbccddeeff'
     * SHA2-256(stdin)= 7e9e83bf42c717e7e29b47aeff5553392eb84b430fccc4b861a38007e54c5d89
     * </pre>
     */
    @Test
    void matchesOpensslVector() {
        assertEquals("sha256=7e9e83bf42c717e7e29b47aeff5553392eb84b430fccc4b861a38007e54c5d89",
                Signatures.sign(SECRET, TIMESTAMP, BODY));
    }

    @Test
    void timestampIsTheUnixSecondOfTheInstant() {
        assertEquals("1700000000", Signatures.timestamp(Instant.parse("2023-11-14T22:13:20.000Z")));
        assertEquals("1700000000", Signatures.timestamp(Instant.parse("2023-11-14T22:13:20.999Z")));
        assertEquals("1700000001", Signatures.timestamp(Instant.parse("2023-11-14T22:13:21.000Z")));
    }

    /** The first attempt signs: its start is the timestamp, the job's secret the key; the secret is then dropped. */
    @Test
    void anUnsignedJobIsSignedAtTheAttemptsStartAndOnlyOnce() {
        UUID id = UUID.randomUUID();
        Job unsigned = Job.unsigned(id, "p-1", "http://127.0.0.1/", BODY, SECRET, 0);
        Job signed = unsigned.signedAt(Instant.parse("2023-11-14T22:13:20.500Z"));
        assertEquals(Job.signed(id, "p-1", "http://127.0.0.1/", BODY, TIMESTAMP,
                "sha256=7e9e83bf42c717e7e29b47aeff5553392eb84b430fccc4b861a38007e54c5d89", 0), signed);
        assertNull(signed.secret());
        assertSame(signed, signed.signedAt(Instant.parse("2030-01-01T00:00:00Z")), "a signed job keeps its signature");
    }
}
