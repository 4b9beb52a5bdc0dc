package com.telemed.messaging.mail;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The waits between a queued mail's attempts: doubling from the first, never past the longest, never giving up. */
class QueuedMailTest {

    @Test
    void waitsDoubleUpToTheLongest() {
        QueuedMail mail = new QueuedMail();
        Instant now = Instant.parse("2026-11-24T10:00:00Z");
        List<Long> waits = new ArrayList<>();
        for (int attempt = 0; attempt < 9; attempt++) {
            mail.failed(now, Duration.ofSeconds(1), Duration.ofSeconds(60));
            waits.add(Duration.between(now, mail.nextAttemptAt).toSeconds());
        }
        assertEquals(List.of(1L, 2L, 4L, 8L, 16L, 32L, 60L, 60L, 60L), waits);
        assertEquals(9, mail.attempts);
    }
}
