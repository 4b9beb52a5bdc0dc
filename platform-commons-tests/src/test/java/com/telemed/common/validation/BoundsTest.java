package com.telemed.common.validation;

import static com.telemed.common.validation.Schemas.number;
import static com.telemed.common.validation.Schemas.object;
import static com.telemed.common.validation.Schemas.string;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Bounds that keep a valid value storable: Zod 3's issues for magnitude, decimals and datetime years. */
class BoundsTest {

    /** As the services read bodies (JsonConventions): exact decimals, never a double. */
    private static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

    private static final ObjectSchema BODY = object()
            .field("days", number().integer().min(1).max(Integer.MAX_VALUE).optional())
            .field("dose", number().min(0).max(1_000_000).decimals(6).optional())
            .field("at", string().datetimeWithOffset().optional());

    private static List<Map<String, Object>> issues(String json) throws Exception {
        ValidationException e = assertThrows(ValidationException.class, () -> BODY.validate(JSON.readTree(json)));
        return e.issues().stream().map(issue -> (Map<String, Object>) new LinkedHashMap<>(issue.fields())).toList();
    }

    private static Map<String, Object> issue(Object... keysAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }

    private static Map<String, Object> tooBig(String field, int maximum) {
        return issue("code", "too_big", "maximum", maximum, "type", "number", "inclusive", true, "exact", false,
                "path", List.of(field), "message", "Number must be less than or equal to " + maximum);
    }

    @Test
    void anIntegerPastAnIntIsTooBigNotWrapped() throws Exception {
        assertEquals(List.of(tooBig("days", Integer.MAX_VALUE)), issues("{\"days\": 2147483648}"));
        assertEquals(List.of(tooBig("days", Integer.MAX_VALUE)), issues("{\"days\": 1e200000}"));
        BODY.validate(JSON.readTree("{\"days\": 2147483647}"));
    }

    @Test
    void aHugeNumberIsTooBigAndATinyOneHasTooManyDecimalsAtOnce() throws Exception {
        assertTimeoutPreemptively(Duration.ofSeconds(2), () -> {
            assertEquals(List.of(tooBig("dose", 1_000_000)), issues("{\"dose\": 1e200000}"));
            assertEquals(List.of(issue("code", "not_multiple_of", "multipleOf", new BigDecimal("0.000001"),
                            "path", List.of("dose"), "message", "Number must be a multiple of 0.000001")),
                    issues("{\"dose\": 1e-2147483647}"));
            assertEquals(List.of("too_small", "not_multiple_of"),
                    issues("{\"dose\": -1.0000001}").stream().map(i -> i.get("code")).toList());
        });
        BODY.validate(JSON.readTree("{\"dose\": 0.000001}"));
        BODY.validate(JSON.readTree("{\"dose\": 1000000.000000}"));
        BODY.validate(JSON.readTree("{\"dose\": 2.5e2}"));
        BODY.validate(JSON.readTree("{\"dose\": 0e-2147483647}"));
    }

    @Test
    void theIssueSerialisesAsZodWritesIt() throws Exception {
        ValidationException e = assertThrows(ValidationException.class, () -> BODY.validate(JSON.readTree("{\"dose\": 0.1234567}")));
        assertEquals("[{\"code\":\"not_multiple_of\",\"multipleOf\":0.000001,\"path\":[\"dose\"],"
                + "\"message\":\"Number must be a multiple of 0.000001\"}]", JSON.writeValueAsString(e.issues()));
    }

    @Test
    void aDatetimeNeedsAFourDigitYearAsInZod() throws Exception {
        Map<String, Object> invalid = issue("code", "invalid_string", "validation", "datetime", "path", List.of("at"),
                "message", "Invalid datetime");
        for (String at : List.of("+999999999-12-31T23:59:59Z", "+300000-01-01T00:00:00Z", "-0001-01-01T00:00:00Z",
                "+2026-11-21T09:30:00Z", "12026-11-21T09:30:00Z")) {
            assertEquals(List.of(invalid), issues("{\"at\": \"" + at + "\"}"), at);
        }
        BODY.validate(JSON.readTree("{\"at\": \"9999-12-31T23:59:59-18:00\"}"));
        BODY.validate(JSON.readTree("{\"at\": \"0000-01-01T00:00:00+18:00\"}"));
    }
}
