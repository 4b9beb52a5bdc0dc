package com.telemed.common.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.From;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/** The scanner behind the platform's {@code Invalid character} issues: what PostgreSQL can store. */
class StorableTextTest {

    /** Unicode scalar values (every code point but the surrogates), U+0000 excluded: all storable. */
    @Provide
    Arbitrary<String> storableText() {
        Arbitrary<Integer> codePoint = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(6, Arbitraries.integers().between(1, 0x7F)),
                net.jqwik.api.Tuple.of(2, Arbitraries.integers().between(0x80, 0xD7FF)),
                net.jqwik.api.Tuple.of(1, Arbitraries.integers().between(0xE000, 0xFFFF)),
                net.jqwik.api.Tuple.of(2, Arbitraries.integers().between(0x10000, 0x10FFFF)));
        return codePoint.list().ofMaxSize(40).map(points -> {
            StringBuilder text = new StringBuilder();
            points.forEach(text::appendCodePoint);
            return text.toString();
        });
    }

    /** One UTF-16 unit PostgreSQL cannot store on its own: U+0000, a high or a low surrogate. */
    @Provide
    Arbitrary<Character> badUnit() {
        return Arbitraries.oneOf(Arbitraries.just('\u0000'),
                Arbitraries.chars().range('\uD800', '\uDBFF'),
                Arbitraries.chars().range('\uDC00', '\uDFFF'));
    }

    /** Any UTF-16 sequence at all: lone surrogates, pairs, U+0000 and plain text mixed. */
    @Provide
    Arbitrary<String> anyText() {
        return Arbitraries.strings().withChars('\u0000', 'a', 'é', '\uD83D', '\uDE00', '\uD800', '\uDFFF', '\u4E2D')
                .withCharRange('\uD7F0', '\uE010').ofMaxLength(20);
    }

    @Property
    void everyScalarValueButNulIsStorable(@ForAll("storableText") String text) {
        assertTrue(StorableText.storable(text));
    }

    @Property
    void oneBadUnitAnywhereMakesTextUnstorable(@ForAll("storableText") String text, @ForAll("badUnit") char bad,
                                               @ForAll @IntRange(max = 40) int where) {
        int at = Math.min(where, text.length());
        String spoiled = text.substring(0, at) + bad + text.substring(at);
        // Inserted inside a pair, the unit still leaves one surrogate alone; \u0000 is never storable.
        assertFalse(StorableText.storable(spoiled), () -> escaped(spoiled));
    }

    /** The oracle: storable exactly when there is no U+0000 and the text survives UTF-8 unchanged. */
    @Property(tries = 2000)
    void agreesWithAUtf8RoundTrip(@ForAll("anyText") String text) {
        boolean survives = new String(text.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8).equals(text);
        assertEquals(survives && text.indexOf('\u0000') < 0, StorableText.storable(text), () -> escaped(text));
    }

    @Property
    void aTreeGetsOneIssuePerUnstorableStringAtItsPath(@ForAll @Size(max = 12) List<@From("anyText") String> texts) {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        ArrayNode list = body.putObject("nested").putArray("list");
        texts.forEach(list::add);
        List<List<Object>> expected = new ArrayList<>();
        for (int i = 0; i < texts.size(); i++) {
            if (!StorableText.storable(texts.get(i))) {
                expected.add(List.of("nested", "list", i));
            }
        }
        Issues issues = new Issues();
        StorableText.check(body, List.of(), issues);
        assertEquals(expected, issues.list().stream().map(Issue::path).toList());
        issues.list().forEach(issue -> {
            assertEquals("custom", issue.code());
            assertEquals("Invalid character", issue.message());
        });
    }

    @Example
    void keysCountAndAKeyWithItsStringValueIsReportedOnce() {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.put("a\u0000", "\u0000");
        body.putObject("b\uD800").put("ok", "\uDC00");
        body.put("fine", 12);
        body.putArray("list").add("ok").addNull().add(true).addObject().put("x", "y\u0000");
        Issues issues = new Issues();
        StorableText.check(body, List.of(), issues);
        assertEquals(List.of(List.of("a\u0000"), List.of("b\uD800"), List.of("b\uD800", "ok"), List.of("list", 3, "x")),
                issues.list().stream().map(Issue::path).toList());
    }

    @Example
    void deeplyNestedBodiesAreWalkedToTheBottom() {
        JsonNode node = JsonNodeFactory.instance.textNode("\u0000");
        List<Object> path = new ArrayList<>();
        for (int depth = 0; depth < 1000; depth++) {
            ArrayNode wrapper = JsonNodeFactory.instance.arrayNode();
            wrapper.add(node);
            node = wrapper;
            path.add(0);
        }
        Issues issues = new Issues();
        StorableText.check(node, List.of(), issues);
        assertEquals(List.of(path), issues.list().stream().map(Issue::path).toList());
    }

    private static String escaped(String text) {
        StringBuilder out = new StringBuilder();
        text.chars().forEach(c -> out.append(c < 0x80 && c >= 0x20 ? String.valueOf((char) c) : "\\u%04x".formatted(c)));
        return out.toString();
    }
}
