package com.telemed.common.json;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.time.Instant;
import java.time.LocalDate;
import java.util.UUID;

/**
 * Fields of a page written by hand with Jackson's streaming generator (requests-service's
 * {@code RequestPageWriter}, webhook-service's {@code EventPageWriter}: issue 44), as the platform's
 * ObjectMapper writes them: nulls written, UUIDs as their text, instants in {@link Timestamps}'s form.
 */
public final class JsonFields {

    private JsonFields() {
    }

    public static void string(String name, String value, JsonGenerator json) throws IOException {
        json.writeFieldName(name);
        if (value == null) {
            json.writeNull();
        } else {
            json.writeString(value);
        }
    }

    public static void uuid(String name, UUID value, JsonGenerator json) throws IOException {
        string(name, value == null ? null : value.toString(), json);
    }

    /**
     * {@link Timestamps#format}'s text ({@code yyyy-MM-dd'T'HH:mm:ss.SSS'Z'}, UTC, milliseconds truncated) written
     * from the instant's fields, without the formatter (a page of events writes up to 200). A year outside 1 to 9999
     * (never stored; {@code yyyy} is the year of era) goes through {@link Timestamps#format} itself.
     */
    public static void timestamp(String name, Instant instant, JsonGenerator json) throws IOException {
        json.writeFieldName(name);
        if (instant == null) {
            json.writeNull();
            return;
        }
        long seconds = instant.getEpochSecond();
        LocalDate date = LocalDate.ofEpochDay(Math.floorDiv(seconds, 86_400L));
        int year = date.getYear();
        if (year < 1 || year > 9999) {
            json.writeString(Timestamps.format(instant));
            return;
        }
        int second = (int) Math.floorMod(seconds, 86_400L);
        char[] text = new char[24];
        digits(text, 0, year, 4);
        text[4] = '-';
        digits(text, 5, date.getMonthValue(), 2);
        text[7] = '-';
        digits(text, 8, date.getDayOfMonth(), 2);
        text[10] = 'T';
        digits(text, 11, second / 3600, 2);
        text[13] = ':';
        digits(text, 14, second / 60 % 60, 2);
        text[16] = ':';
        digits(text, 17, second % 60, 2);
        text[19] = '.';
        digits(text, 20, instant.getNano() / 1_000_000, 3);
        text[23] = 'Z';
        json.writeString(text, 0, text.length);
    }

    private static void digits(char[] text, int at, int value, int width) {
        for (int i = at + width - 1; i >= at; i--) {
            text[i] = (char) ('0' + value % 10);
            value /= 10;
        }
    }
}
