package com.telemed.common.json;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;

/** The platform's one timestamp form: UTC, milliseconds, {@code Z} ({@code 2026-11-21T09:30:00.000Z}). */
public final class Timestamps {

    public static final DateTimeFormatter FORMAT =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    private Timestamps() {
    }

    /** Now, at the precision the wire carries, so a stored value reads back unchanged. */
    public static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MILLIS);
    }

    public static String format(Instant instant) {
        return FORMAT.format(instant);
    }
}
