package com.telemed.common.validation;

import static com.telemed.common.validation.Schemas.array;
import static com.telemed.common.validation.Schemas.bool;
import static com.telemed.common.validation.Schemas.enumOf;
import static com.telemed.common.validation.Schemas.number;
import static com.telemed.common.validation.Schemas.object;
import static com.telemed.common.validation.Schemas.string;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The issues are Zod 3's, field for field and in Zod's order. */
class SchemasTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static final ObjectSchema ADDRESS = object()
            .field("street1", string().min(1))
            .field("state", string().length(2))
            .field("zipCode", string().regex(Pattern.compile("^\\d{5}(-\\d{4})?$"), "Invalid"));

    private static final ObjectSchema MEMBER = object()
            .field("firstName", string().min(1))
            .field("email", string().email())
            .field("phone", string().nullable().optional())
            .field("address", ADDRESS)
            .field("shippingAddress", ADDRESS.nullable().optional());

    private static List<Map<String, Object>> issues(Schema<?> schema, String json) throws Exception {
        JsonNode node = JSON.readTree(json);
        ValidationException e = assertThrows(ValidationException.class, () -> schema.validate(node));
        return e.issues().stream().map(issue -> new LinkedHashMap<>(issue.fields()))
                .map(map -> (Map<String, Object>) map).toList();
    }

    private static Map<String, Object> issue(Object... keysAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }

    @Test
    void reportsEveryFieldWithNestedPaths() throws Exception {
        var found = issues(MEMBER, """
                {"firstName": "", "email": "x", "phone": 5,
                 "address": {"street1": "1 Main", "state": "CAL", "zipCode": "1234"},
                 "shippingAddress": {"street1": "", "state": "C", "zipCode": "12345"}}""");
        assertEquals(List.of(
                issue("code", "too_small", "minimum", 1, "type", "string", "inclusive", true, "exact", false,
                        "path", List.of("firstName"), "message", "String must contain at least 1 character(s)"),
                issue("code", "invalid_string", "validation", "email", "path", List.of("email"), "message", "Invalid email"),
                issue("code", "invalid_type", "expected", "string", "received", "number",
                        "path", List.of("phone"), "message", "Expected string, received number"),
                issue("code", "too_big", "maximum", 2, "type", "string", "inclusive", true, "exact", true,
                        "path", List.of("address", "state"), "message", "String must contain exactly 2 character(s)"),
                issue("code", "invalid_string", "validation", "regex", "path", List.of("address", "zipCode"), "message", "Invalid"),
                issue("code", "too_small", "minimum", 1, "type", "string", "inclusive", true, "exact", false,
                        "path", List.of("shippingAddress", "street1"), "message", "String must contain at least 1 character(s)"),
                issue("code", "too_small", "minimum", 2, "type", "string", "inclusive", true, "exact", true,
                        "path", List.of("shippingAddress", "state"), "message", "String must contain exactly 2 character(s)")),
                found);
    }

    @Test
    void missingNullAndWrongTypes() throws Exception {
        var found = issues(MEMBER, "{\"firstName\": null, \"address\": []}");
        assertEquals(issue("code", "invalid_type", "expected", "string", "received", "null",
                "path", List.of("firstName"), "message", "Expected string, received null"), found.get(0));
        assertEquals(issue("code", "invalid_type", "expected", "string", "received", "undefined",
                "path", List.of("email"), "message", "Required"), found.get(1));
        assertEquals(issue("code", "invalid_type", "expected", "object", "received", "array",
                "path", List.of("address"), "message", "Expected object, received array"), found.get(2));
        assertEquals(3, found.size());
    }

    @Test
    void acceptsAValidMemberWithNullsWhereAllowed() throws Exception {
        MEMBER.validate(JSON.readTree("""
                {"firstName": "Ada", "email": "ada@example.com", "phone": null, "shippingAddress": null,
                 "address": {"street1": "1 Main", "state": "CA", "zipCode": "12345-6789"}}"""));
    }

    /** Issue #38: a name is one line (it goes into a mail's Subject): control characters and line separators are one issue. */
    @Test
    void aSingleLineStringRefusesControlCharactersAndLineSeparators() throws Exception {
        ObjectSchema name = object().field("name", string().min(1).max(20).singleLine());
        for (String bad : List.of("a\\nb", "a\\r", "\\t", "\\u0007", "\\u007f", "\\u0085", "\\u009f", "a\\u2028", "\\u2029")) {
            assertEquals(List.of(issue("code", "custom", "path", List.of("name"), "message", "Invalid character")),
                    issues(name, "{\"name\": \"" + bad + "\"}"), bad);
        }
        // Both checks report: too long and not one line.
        assertEquals(2, issues(name, "{\"name\": \"" + "a".repeat(21) + "\\n\"}").size());
        for (String good : List.of("Ada", "Zo\u00eb", "e\u0301", "\u65e5\u672c", "O'Brien-Smith", "\u00a0", "\ud83d\ude00", "\u200b")) {
            name.validate(JSON.readTree("{\"name\": \"" + good + "\"}"));
        }
    }

    @Test
    void coercedQueryNumbers() throws Exception {
        ObjectSchema query = object()
                .field("page", number().coerce().integer().min(1).optional())
                .field("limit", number().coerce().integer().min(1).max(100).optional());
        assertEquals(List.of(
                issue("code", "invalid_type", "expected", "number", "received", "nan", "path", List.of("page"),
                        "message", "Expected number, received nan"),
                issue("code", "too_big", "maximum", 100, "type", "number", "inclusive", true, "exact", false,
                        "path", List.of("limit"), "message", "Number must be less than or equal to 100")),
                issues(query, "{\"page\": \"abc\", \"limit\": \"101\"}"));
        assertEquals(List.of(
                issue("code", "invalid_type", "expected", "integer", "received", "float", "path", List.of("page"),
                        "message", "Expected integer, received float"),
                issue("code", "too_small", "minimum", 1, "type", "number", "inclusive", true, "exact", false,
                        "path", List.of("limit"), "message", "Number must be greater than or equal to 1")),
                issues(query, "{\"page\": \"1.5\", \"limit\": \"0\"}"));
        query.validate(JSON.readTree("{\"page\": \"2\", \"limit\": \"100\"}"));
    }

    @Test
    void unknownKeysAreEachAnIssueAfterTheFieldsWhateverTheyWere() throws Exception {
        ObjectSchema answers = object().unknownKeys("Unknown question")
                .field("smoker", bool())
                .field("goal", enumOf("lose", "maintain"))
                .rule((object, path, issues) -> issues.custom(path, "a rule runs only on a whole object"));
        assertEquals(List.of(
                issue("code", "invalid_type", "expected", "boolean", "received", "string", "path", List.of("smoker"),
                        "message", "Expected boolean, received string"),
                issue("code", "invalid_enum_value", "received", "gain", "options", List.of("lose", "maintain"),
                        "path", List.of("goal"), "message", "Invalid enum value. Expected 'lose' | 'maintain', received 'gain'"),
                issue("code", "custom", "path", List.of("height"), "message", "Unknown question"),
                issue("code", "custom", "path", List.of("extra"), "message", "Unknown question")),
                issues(answers, "{\"height\": 170, \"smoker\": \"no\", \"goal\": \"gain\", \"extra\": true}"));
        assertEquals(List.of(
                issue("code", "custom", "path", List.of("extra"), "message", "Unknown question"),
                issue("code", "custom", "path", List.of(), "message", "a rule runs only on a whole object")),
                issues(answers, "{\"smoker\": true, \"goal\": \"lose\", \"extra\": 1}"));
        assertEquals(List.of(issue("code", "invalid_type", "expected", "object", "received", "array", "path", List.of(),
                "message", "Expected object, received array")), issues(answers, "[]"));
        object().field("smoker", bool()).validate(JSON.readTree("{\"smoker\": true, \"extra\": 1}"));
    }

    @Test
    void arraysReportIndexesAndSize() throws Exception {
        ObjectSchema body = object().field("items", array(object().field("ok", bool())).min(1).max(1));
        assertEquals(List.of(
                issue("code", "invalid_type", "expected", "boolean", "received", "string",
                        "path", List.of("items", 1, "ok"), "message", "Expected boolean, received string"),
                issue("code", "too_big", "maximum", 1, "type", "array", "inclusive", true, "exact", false,
                        "path", List.of("items"), "message", "Array must contain at most 1 element(s)")),
                issues(body, "{\"items\": [{\"ok\": true}, {\"ok\": \"yes\"}]}"));
        assertEquals("Array must contain at least 1 element(s)", issues(body, "{\"items\": []}").get(0).get("message"));
    }

    @Test
    void refinementsAndRulesRunOnlyOnValidValues() throws Exception {
        ObjectSchema body = object()
                .field("sendAt", string().datetimeWithOffset().optional())
                .field("a", string().optional().refine(node -> !node.textValue().equals("bad"), "a must not be bad"))
                .rule((object, path, issues) -> {
                    if (object.has("a") == object.has("sendAt")) {
                        issues.custom(path, "Provide either a or sendAt, not both");
                    }
                });
        assertEquals(List.of(issue("code", "invalid_string", "validation", "datetime", "path", List.of("sendAt"),
                "message", "Invalid datetime")), issues(body, "{\"sendAt\": \"2026-11-21T09:30:00\"}"));
        assertEquals(List.of(issue("code", "custom", "path", List.of("a"), "message", "a must not be bad")),
                issues(body, "{\"a\": \"bad\"}"));
        assertEquals(List.of(issue("code", "custom", "path", List.of(), "message", "Provide either a or sendAt, not both")),
                issues(body, "{\"a\": \"x\", \"sendAt\": \"2026-11-21T09:30:00Z\"}"));
        body.validate(JSON.readTree("{\"sendAt\": \"2026-11-21T09:30:00+02:00\"}"));
    }

    @Test
    void rulesRunBesideFailedChecksButNotAfterAWrongType() throws Exception {
        ObjectSchema body = object()
                .field("email", string().email().optional())
                .field("kind", enumOf("a", "b").optional())
                .field("count", number().optional())
                .rule((object, path, issues) -> {
                    if (!object.has("note")) {
                        issues.custom(path, "note is required");
                    }
                });
        // Zod 3: an invalid email leaves the object "dirty", and superRefine still runs.
        assertEquals(List.of(
                        issue("code", "invalid_string", "validation", "email", "path", List.of("email"), "message", "Invalid email"),
                        issue("code", "custom", "path", List.of(), "message", "note is required")),
                issues(body, "{\"email\": \"nope\"}"));
        // A wrong type or enum value aborts the object: no rule runs.
        assertEquals(List.of("invalid_type"), issues(body, "{\"count\": \"3\"}").stream().map(i -> i.get("code")).toList());
        assertEquals(List.of("invalid_enum_value"), issues(body, "{\"kind\": \"c\"}").stream().map(i -> i.get("code")).toList());
    }
}
