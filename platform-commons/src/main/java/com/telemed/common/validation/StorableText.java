package com.telemed.common.validation;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Text PostgreSQL can store: no U+0000 (a {@code text} value cannot hold it) and no unpaired
 * UTF-16 surrogate (it has no UTF-8 form). JSON can carry both ({@code "\u0000"},
 * {@code "\ud800"}), so every input is checked before anything reads it (decisions.md, Wire
 * format): one {@code custom} issue {@code Invalid character} per offending string, at its path.
 *
 * <p>Applied to every JSON body, query parameter and path parameter of every service by
 * {@code com.telemed.common.input.InputCharacters}; nothing else needs to call it.
 */
public final class StorableText {

    public static final String INVALID_CHARACTER = "Invalid character";

    private StorableText() {
    }

    /** Whether PostgreSQL can store {@code text}: no U+0000 and every surrogate in a high-low pair. */
    public static boolean storable(CharSequence text) {
        int length = text.length();
        for (int i = 0; i < length; i++) {
            char c = text.charAt(i);
            if (c == '\u0000' || Character.isLowSurrogate(c)) {
                return false;
            }
            if (Character.isHighSurrogate(c)) {
                if (i + 1 >= length || !Character.isLowSurrogate(text.charAt(i + 1))) {
                    return false;
                }
                i++;
            }
        }
        return true;
    }

    /**
     * Adds an issue for every string value and every object key below {@code node} that is not
     * {@link #storable}, in document order. A key and its string value share a path: reported once.
     */
    public static void check(JsonNode node, List<Object> path, Issues issues) {
        if (node == null) {
            return;
        }
        if (node.isTextual()) {
            if (!storable(node.textValue())) {
                issues.custom(path, INVALID_CHARACTER);
            }
        } else if (node.isObject()) {
            Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> field = fields.next();
                List<Object> at = Issues.append(path, field.getKey());
                if (!storable(field.getKey())) {
                    issues.custom(at, INVALID_CHARACTER);
                    if (field.getValue().isTextual()) {
                        continue;
                    }
                }
                check(field.getValue(), at, issues);
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                check(node.get(i), Issues.append(path, i), issues);
            }
        }
    }

    /** The issues of a whole input (a body), thrown at once; nothing when every string is storable. */
    public static void check(JsonNode node) {
        Issues issues = new Issues();
        check(node, List.of(), issues);
        issues.throwIfAny();
    }
}
