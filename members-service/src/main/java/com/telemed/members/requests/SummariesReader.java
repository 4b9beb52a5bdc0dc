package com.telemed.members.requests;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.telemed.members.member.RequestSummary;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The answer of {@code POST /internal/requests/summaries} read token by token with Jackson's streaming parser (issue
 * 44: every page of the members list reads one), into what the platform's ObjectMapper reads for
 * {@link SummariesAnswer}: unknown fields skipped, a null member list as missing, nulls as nulls, ids by
 * {@link UUID#fromString}, instants as ISO-8601 text, nothing after the value. Without the ObjectMapper's deserializer
 * lookups and record construction by reflection. A null summary in a member's list is unreadable too (the ObjectMapper
 * read it, and the page then failed on it). Whatever it cannot read ({@link #read} throws) is an unreadable
 * answer: the platform's policy repeats the call, then answers 503, as for an answer the ObjectMapper could not read.
 */
final class SummariesReader {

    private static final JsonFactory JSON = new JsonFactory();

    private SummariesReader() {
    }

    /** The answer; {@code summaries} null when the answer has none (or null). */
    static SummariesAnswer read(byte[] body) {
        try (JsonParser json = JSON.createParser(body)) {
            expect(json.nextToken(), JsonToken.START_OBJECT);
            Map<String, List<RequestSummary>> byMember = null;
            while (json.nextToken() == JsonToken.FIELD_NAME) {
                String field = json.currentName();
                JsonToken value = json.nextToken();
                if (!"summaries".equals(field)) {
                    json.skipChildren();
                } else if (value == JsonToken.VALUE_NULL) {
                    byMember = null;
                } else {
                    byMember = members(json, value);
                }
            }
            expect(json.currentToken(), JsonToken.END_OBJECT);
            if (json.nextToken() != null) {
                throw new IllegalArgumentException("summaries answer: content after its value");
            }
            return new SummariesAnswer(byMember);
        } catch (JsonParseException | DateTimeParseException e) {
            throw new IllegalArgumentException("summaries answer: not readable", e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Map<String, List<RequestSummary>> members(JsonParser json, JsonToken start) throws IOException {
        expect(start, JsonToken.START_OBJECT);
        Map<String, List<RequestSummary>> byMember = new HashMap<>();
        while (json.nextToken() == JsonToken.FIELD_NAME) {
            String member = json.currentName();
            JsonToken value = json.nextToken();
            if (value == JsonToken.VALUE_NULL) {
                byMember.remove(member);
                continue;
            }
            expect(value, JsonToken.START_ARRAY);
            List<RequestSummary> summaries = new ArrayList<>();
            JsonToken next;
            while ((next = json.nextToken()) != JsonToken.END_ARRAY) {
                summaries.add(summary(json, next));
            }
            byMember.put(member, summaries);
        }
        return byMember;
    }

    private static RequestSummary summary(JsonParser json, JsonToken start) throws IOException {
        expect(start, JsonToken.START_OBJECT);
        UUID id = null;
        String drugId = null;
        String prescriptionName = null;
        String dosage = null;
        String status = null;
        String caseNotes = null;
        Instant createdAt = null;
        Instant updatedAt = null;
        while (json.nextToken() == JsonToken.FIELD_NAME) {
            String field = json.currentName();
            JsonToken value = json.nextToken();
            switch (field) {
                case "id" -> {
                    String text = text(json, value);
                    id = text == null ? null : UUID.fromString(text);
                }
                case "drugId" -> drugId = text(json, value);
                case "prescriptionName" -> prescriptionName = text(json, value);
                case "dosage" -> dosage = text(json, value);
                case "status" -> status = text(json, value);
                case "caseNotes" -> caseNotes = text(json, value);
                case "createdAt" -> createdAt = instant(json, value);
                case "updatedAt" -> updatedAt = instant(json, value);
                default -> json.skipChildren();
            }
        }
        return new RequestSummary(id, drugId, prescriptionName, dosage, status, caseNotes, createdAt, updatedAt);
    }

    /** A string field: text, or null; a number or boolean as its text (as the ObjectMapper coerces them); no structure. */
    private static String text(JsonParser json, JsonToken value) throws IOException {
        if (value == JsonToken.VALUE_NULL) {
            return null;
        }
        if (!value.isScalarValue()) {
            throw new IllegalArgumentException("summaries answer: a structure where text belongs");
        }
        return json.getText();
    }

    private static Instant instant(JsonParser json, JsonToken value) throws IOException {
        if (value == JsonToken.VALUE_NULL) {
            return null;
        }
        expect(value, JsonToken.VALUE_STRING);
        return instant(json.getText());
    }

    /**
     * The platform's form ({@code yyyy-MM-dd'T'HH:mm:ss.SSS'Z'}, what requests-service writes) read from its digits;
     * any other ISO-8601 instant by {@link Instant#parse} (also what refuses a malformed one).
     */
    static Instant instant(String text) {
        if (text.length() != 24 || text.charAt(4) != '-' || text.charAt(7) != '-' || text.charAt(10) != 'T'
                || text.charAt(13) != ':' || text.charAt(16) != ':' || text.charAt(19) != '.' || text.charAt(23) != 'Z') {
            return Instant.parse(text);
        }
        int year = digits(text, 0, 4);
        int month = digits(text, 5, 2);
        int day = digits(text, 8, 2);
        int hour = digits(text, 11, 2);
        int minute = digits(text, 14, 2);
        int second = digits(text, 17, 2);
        int millis = digits(text, 20, 3);
        if (year < 0 || month < 1 || month > 12 || day < 1 || day > 28 || hour < 0 || hour > 23 || minute < 0 || minute > 59
                || second < 0 || second > 59 || millis < 0) {
            return Instant.parse(text); // days 29 to 31 and leap seconds: the JDK's calendar rules
        }
        long epochDay = LocalDate.of(year, month, day).toEpochDay();
        return Instant.ofEpochSecond(epochDay * 86_400L + hour * 3_600L + minute * 60L + second, millis * 1_000_000L);
    }

    /** The decimal number of {@code width} digits at {@code at}; -1 when one of them is not a digit. */
    private static int digits(String text, int at, int width) {
        int value = 0;
        for (int i = at; i < at + width; i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }

    private static void expect(JsonToken token, JsonToken expected) {
        if (token != expected) {
            throw new IllegalArgumentException("summaries answer: " + expected + " expected, " + token + " found");
        }
    }
}
