package com.telemed.requests.request;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;

/**
 * The date filters of {@code GET /v1/requests}: {@code startDate} is the instant given (a bare
 * date is its start, UTC); {@code endDate} is inclusive to the end of its calendar day, UTC.
 */
final class DateBounds {

    private DateBounds() {
    }

    static Instant start(String value) {
        return value.length() == 10 ? LocalDate.parse(value).atStartOfDay(ZoneOffset.UTC).toInstant() : instant(value);
    }

    /** The first instant after the day {@code value} falls on (exclusive bound). */
    static Instant endExclusive(String value) {
        LocalDate day = value.length() == 10 ? LocalDate.parse(value) : instant(value).atZone(ZoneOffset.UTC).toLocalDate();
        return day.plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant();
    }

    /** A full ISO 8601 date-time; without an offset it is read as UTC. */
    static Instant instant(String value) {
        try {
            return OffsetDateTime.parse(value).toInstant();
        } catch (DateTimeParseException e) {
            return LocalDateTime.parse(value).toInstant(ZoneOffset.UTC);
        }
    }
}
