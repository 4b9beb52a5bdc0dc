package com.telemed.common.validation;

import static com.telemed.common.validation.Schemas.number;
import static com.telemed.common.validation.Schemas.object;
import static com.telemed.common.validation.Schemas.string;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.NullNode;
import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Validate the tree, then bind it to the record: one call, the contract's issues first. */
class BindingTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    record Note(String author, String text, BigDecimal weight) {
    }

    record Mismatched(int author) {
    }

    private static final ObjectSchema NOTE = object()
            .field("author", string().min(1))
            .field("text", string().max(10).optional())
            .field("weight", number().optional());

    @Test
    void aValidBodyIsBoundWithAbsentFieldsNullAndUnknownOnesSkipped() throws Exception {
        var tree = JSON.readTree("{\"author\": \"ada\", \"weight\": 2.50, \"extra\": [1]}");
        // A number binds as the tree's own decimal value, which a field read by name gave before.
        assertEquals(new Note("ada", null, tree.get("weight").decimalValue()), Binding.bind(NOTE, tree, Note.class));
    }

    @Test
    void everyIssueIsThrownBeforeAnythingIsBound() {
        ValidationException refused = assertThrows(ValidationException.class,
                () -> Binding.bind(NOTE, JSON.readTree("{\"author\": \"\", \"text\": \"far too long here\"}"), Note.class));
        assertEquals(List.of("too_small", "too_big"), refused.issues().stream().map(Issue::code).toList());
    }

    @Test
    void anAbsentOrNullBodyReadsAsEmpty() {
        for (var body : new com.fasterxml.jackson.databind.JsonNode[] {null, NullNode.instance}) {
            ValidationException refused = assertThrows(ValidationException.class, () -> Binding.bind(NOTE, body, Note.class));
            assertEquals(List.of(List.of("author")), refused.issues().stream().map(Issue::path).toList());
        }
    }

    @Test
    void aRecordThatDisagreesWithItsSchemaIsABugNamedWithoutTheValue() {
        IllegalStateException bug = assertThrows(IllegalStateException.class,
                () -> Binding.bind(NOTE, JSON.readTree("{\"author\": \"secret-name\"}"), Mismatched.class));
        assertTrue(bug.getMessage().startsWith("a validated body does not bind to Mismatched"), bug.getMessage());
        assertTrue(!bug.getMessage().contains("secret-name"), bug.getMessage());
    }
}
