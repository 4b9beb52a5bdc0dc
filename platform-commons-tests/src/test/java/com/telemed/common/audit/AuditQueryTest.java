package com.telemed.common.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.telemed.common.validation.ValidationException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The audit reads' parameters and cursor, without a service: parsing, bounds, issues, order. */
class AuditQueryTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final UUID ID = UUID.fromString("0b7e6c1e-2a8f-4d51-9a57-3c1f0e8d2b44");
    private static final Instant AT = Instant.parse("2026-11-29T10:15:30.123Z");

    @Test
    void nothingSentIsEverythingNewestFirstFiftyAtATime() {
        AuditQuery query = AuditQuery.internal(null, null, null, null, null, null, null, null);
        assertEquals(new AuditQuery(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), 50, Optional.empty()), query);
        assertEquals(query, AuditQuery.cursor(null, null, null, null, null, null, null));
    }

    @Test
    void everyFilterIsReadAsSent() {
        AuditQuery query = AuditQuery.internal("acc_1", "request.approve", "req-9", "2026-11-01T00:00:00+01:00",
                "2026-12-01T00:00:00Z", "200", "2026-11-29T10:15:30.123Z", ID.toString());
        assertEquals(new AuditQuery(Optional.of("acc_1"), Optional.of("request.approve"), Optional.of("req-9"),
                Optional.of(Instant.parse("2026-10-31T23:00:00Z")), Optional.of(Instant.parse("2026-12-01T00:00:00Z")),
                200, Optional.of(new AuditCursor(AT, ID))), query);
    }

    @Test
    void badParametersAreEveryIssueAtOnce() throws Exception {
        ValidationException refused = assertThrows(ValidationException.class, () -> AuditQuery.internal("", null, null,
                "yesterday", "2026-12-01", "201", "2026-11-29T10:15:30Z", "not-a-uuid"));
        assertEquals("""
                [{"code":"too_small","minimum":1,"type":"string","inclusive":true,"exact":false,"path":["actor"],"message":"String must contain at least 1 character(s)"},\
                {"code":"invalid_string","validation":"datetime","path":["from"],"message":"Invalid datetime"},\
                {"code":"invalid_string","validation":"datetime","path":["to"],"message":"Invalid datetime"},\
                {"code":"too_big","maximum":200,"type":"number","inclusive":true,"exact":false,"path":["limit"],"message":"Number must be less than or equal to 200"},\
                {"code":"invalid_string","validation":"regex","path":["beforeId"],"message":"Invalid uuid"}]""",
                JSON.writeValueAsString(refused.issues()));

        ValidationException zero = assertThrows(ValidationException.class,
                () -> AuditQuery.cursor(null, null, null, null, null, "0", null));
        assertEquals("""
                [{"code":"too_small","minimum":1,"type":"number","inclusive":true,"exact":false,"path":["limit"],"message":"Number must be greater than or equal to 1"}]""",
                JSON.writeValueAsString(zero.issues()));
        ValidationException fraction = assertThrows(ValidationException.class,
                () -> AuditQuery.cursor(null, null, null, null, null, "2.5", null));
        assertEquals("""
                [{"code":"invalid_type","expected":"integer","received":"float","path":["limit"],"message":"Expected integer, received float"}]""",
                JSON.writeValueAsString(fraction.issues()));
    }

    @Test
    void anInstantOutsideFourDigitYearsInUtcIsRefused() throws Exception {
        ValidationException refused = assertThrows(ValidationException.class, () -> AuditQuery.cursor(null, null, null,
                "0000-01-01T00:00:00+01:00", "9999-12-31T23:30:00-01:00", null, null));
        assertEquals("""
                [{"code":"custom","path":["from"],"message":"Invalid datetime"},{"code":"custom","path":["to"],"message":"Invalid datetime"}]""",
                JSON.writeValueAsString(refused.issues()));
        assertEquals(Optional.of(Instant.parse("0000-01-01T00:00:00Z")),
                AuditQuery.cursor(null, null, null, "0000-01-01T00:00:00Z", null, null, null).from());
    }

    @Test
    void aCursorHalfIsRefused() throws Exception {
        ValidationException onlyAt = assertThrows(ValidationException.class,
                () -> AuditQuery.internal(null, null, null, null, null, null, "2026-11-29T10:15:30Z", null));
        assertEquals("""
                [{"code":"custom","path":["beforeId"],"message":"beforeAt and beforeId go together"}]""",
                JSON.writeValueAsString(onlyAt.issues()));
        ValidationException onlyId = assertThrows(ValidationException.class,
                () -> AuditQuery.internal(null, null, null, null, null, null, null, ID.toString()));
        assertEquals("""
                [{"code":"custom","path":["beforeAt"],"message":"beforeAt and beforeId go together"}]""",
                JSON.writeValueAsString(onlyId.issues()));
    }

    @Test
    void theOpaqueCursorReadsBackAndNothingElseIsOne() throws Exception {
        AuditCursor cursor = new AuditCursor(AT, ID);
        String text = cursor.encode();
        assertEquals("MjAyNi0xMS0yOVQxMDoxNTozMC4xMjNafDBiN2U2YzFlLTJhOGYtNGQ1MS05YTU3LTNjMWYwZThkMmI0NA", text);
        assertEquals(Optional.of(cursor), AuditCursor.decode(text));
        assertEquals(Optional.of(cursor), AuditQuery.cursor(null, null, null, null, null, null, text).before());

        for (String bad : List.of("", "%%%", "bm90LWEtY3Vyc29y", // "not-a-cursor"
                b64("2026-11-29T10:15:30Z|1-2-3-4-5"), b64("yesterday|" + ID), b64("2026-11-29T10:15:30Z"),
                "A".repeat(400))) {
            assertEquals(Optional.empty(), AuditCursor.decode(bad), bad);
        }
        ValidationException refused = assertThrows(ValidationException.class,
                () -> AuditQuery.cursor(null, null, null, null, null, null, "bm90LWEtY3Vyc29y"));
        assertEquals("""
                [{"code":"custom","path":["after"],"message":"Invalid cursor"}]""", JSON.writeValueAsString(refused.issues()));
    }

    @Test
    void newestFirstOrdersIdsAsPostgresqlDoes() {
        // Unsigned: 8... is after 7... in PostgreSQL; UUID.compareTo (signed halves) says before.
        AuditEntry high = entry(AT, "80000000-0000-0000-0000-000000000000");
        AuditEntry low = entry(AT, "7fffffff-ffff-ffff-ffff-ffffffffffff");
        AuditEntry older = entry(AT.minusMillis(1), "ffffffff-ffff-ffff-ffff-ffffffffffff");
        List<AuditEntry> entries = new ArrayList<>(List.of(older, low, high));
        entries.sort(AuditEntry.NEWEST_FIRST);
        assertEquals(List.of(high, low, older), entries);

        AuditQuery afterHigh = AuditQuery.internal(null, null, null, null, null, null, AT.toString(), high.id().toString());
        assertFalse(afterHigh.matches(high));
        assertTrue(afterHigh.matches(low));
        assertTrue(afterHigh.matches(older));
        AuditQuery afterLow = afterHigh.before(Optional.of(AuditCursor.of(low)));
        assertFalse(afterLow.matches(high));
        assertFalse(afterLow.matches(low));
        assertTrue(afterLow.matches(older));
    }

    @Test
    void filtersMatchExactlyFromInclusiveToExclusive() {
        AuditEntry entry = new AuditEntry(ID, AT, "person", "acc_1", "request.approve", "request", "req-9", "p-1");
        assertTrue(AuditQuery.internal("acc_1", "request.approve", "req-9", AT.toString(), AT.plusMillis(1).toString(),
                null, null, null).matches(entry));
        assertFalse(AuditQuery.internal(null, null, null, null, AT.toString(), null, null, null).matches(entry));
        assertFalse(AuditQuery.internal("acc_10", null, null, null, null, null, null, null).matches(entry));
        assertFalse(AuditQuery.internal(null, "request.deny", null, null, null, null, null, null).matches(entry));
        assertFalse(AuditQuery.internal(null, null, "req-", null, null, null, null, null).matches(entry));
    }

    private static AuditEntry entry(Instant at, String id) {
        return new AuditEntry(UUID.fromString(id), at, "person", "acc_1", "request.approve", "request", "r", null);
    }

    private static String b64(String text) {
        return java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
}
