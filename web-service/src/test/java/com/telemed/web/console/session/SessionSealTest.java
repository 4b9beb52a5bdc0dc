package com.telemed.web.console.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The console cookie's sealing on its own: round trip, tampering, keys, limits. */
class SessionSealTest {

    static final String KEY = "a-console-session-key-of-enough-characters-1";
    static final String OTHER_KEY = "a-console-session-key-of-enough-characters-2";
    static final Instant NOW = Instant.parse("2030-03-01T10:00:00Z");

    static ConsoleSession session(Instant signedInAt, Instant lastSeenAt) {
        return new ConsoleSession("ops_0123456789abcdef0123456789abcdef", "acc-1", "Dr Ada Okafor", List.of("prescriber", "support"),
                "pr-1", "f00d", signedInAt, lastSeenAt);
    }

    static SessionSeal seal(Instant now, String... keys) {
        return new SessionSeal(List.of(keys), Duration.ofMinutes(30), Duration.ofHours(12), Clock.fixed(now, ZoneOffset.UTC));
    }

    @Test
    void aSealedSessionOpensAsItWas() {
        ConsoleSession session = session(NOW.minusSeconds(60), NOW.minusSeconds(5));
        String sealed = seal(NOW, KEY).seal(session);
        assertEquals(Optional.of(session), seal(NOW, KEY).open(sealed));
        assertTrue(sealed.matches("[A-Za-z0-9_-]+"), "a cookie value without quoting: " + sealed);
        assertFalse(new String(Base64.getUrlDecoder().decode(sealed), StandardCharsets.ISO_8859_1).contains("ops_"), "the token is not readable");
        assertNotEquals(sealed, seal(NOW, KEY).seal(session), "a fresh nonce each time");
    }

    @Test
    void anyChangedByteIsRefused() {
        byte[] raw = Base64.getUrlDecoder().decode(seal(NOW, KEY).seal(session(NOW, NOW)));
        for (int i = 0; i < raw.length; i++) {
            byte[] changed = raw.clone();
            changed[i] ^= 0x01;
            assertEquals(Optional.empty(), seal(NOW, KEY).open(Base64.getUrlEncoder().withoutPadding().encodeToString(changed)), "byte " + i);
        }
        for (String broken : new String[] {"", "not base64!", "AQ", "x".repeat(9000)}) {
            assertEquals(Optional.empty(), seal(NOW, KEY).open(broken), broken);
        }
        assertEquals(Optional.empty(), seal(NOW, KEY).open(null));
    }

    @Test
    void anotherKeyOpensNothingButARotationOpensTheOldOnes() {
        String sealed = seal(NOW, KEY).seal(session(NOW, NOW));
        assertEquals(Optional.empty(), seal(NOW, OTHER_KEY).open(sealed));
        assertTrue(seal(NOW, OTHER_KEY, KEY).open(sealed).isPresent(), "the second key opens what the first sealed before");
        String resealed = seal(NOW, OTHER_KEY, KEY).seal(session(NOW, NOW));
        assertEquals(Optional.empty(), seal(NOW, KEY).open(resealed), "the first key seals");
    }

    @Test
    void aSessionIdleForThirtyMinutesOrTwelveHoursOldIsOver() {
        String idle = seal(NOW, KEY).seal(session(NOW.minusSeconds(3600), NOW.minusSeconds(30 * 60)));
        assertEquals(Optional.empty(), seal(NOW, KEY).open(idle));
        assertTrue(seal(NOW.minusSeconds(1), KEY).open(idle).isPresent(), "a second before its idle limit");
        String old = seal(NOW, KEY).seal(session(NOW.minus(Duration.ofHours(12)), NOW.minusSeconds(10)));
        assertEquals(Optional.empty(), seal(NOW, KEY).open(old));
        assertTrue(seal(NOW.minusSeconds(11), KEY).open(old).isPresent(), "before its absolute limit and not idle");
    }

    @Test
    void aShortKeyIsRefusedWithoutQuotingIt() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> seal(NOW, "short-secret"));
        assertEquals("web.console.session-key: every key needs at least 32 characters (one has 12)", refused.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new SessionSeal(List.of(), Duration.ofMinutes(30), Duration.ofHours(12), Clock.systemUTC()));
    }
}
