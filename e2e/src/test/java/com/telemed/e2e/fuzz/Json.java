package com.telemed.e2e.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A JSON value as it goes on the wire, with what Jackson's trees cannot hold: number tokens kept
 * as written ({@code -0}, {@code 1e200000}), duplicate keys, lone surrogates (written as
 * {@code \ud800} escapes), verbatim fragments, and references to fixture ids resolved when the body
 * is written.
 */
public sealed interface Json {

    record Obj(List<Map.Entry<String, Json>> fields) implements Json {
    }

    record Arr(List<Json> items) implements Json {
    }

    record Str(String value) implements Json {
    }

    /** A number token exactly as written (may be one JSON does not allow, such as {@code NaN}). */
    record Num(String token) implements Json {
    }

    record Bool(boolean value) implements Json {
    }

    record Null() implements Json {
    }

    /** Written verbatim. */
    record Raw(String text) implements Json {
    }

    /** A fixture id, as a string. */
    record Ref(Slot slot) implements Json {
    }

    /** Nested {@code depth} arrays (or objects under key "a") around {@code inner}; written iteratively. */
    record Deep(int depth, boolean objects, Json inner) implements Json {
    }

    ObjectMapper MAPPER = new ObjectMapper();

    /** Parses a template: a string {@code "$member"} becomes a reference to that slot. */
    static Json template(String text) {
        try {
            return of(MAPPER.readTree(text));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Json of(JsonNode node) {
        if (node.isObject()) {
            List<Map.Entry<String, Json>> fields = new ArrayList<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                fields.add(Map.entry(field.getKey(), of(field.getValue())));
            }
            return new Obj(List.copyOf(fields));
        }
        if (node.isArray()) {
            List<Json> items = new ArrayList<>();
            node.forEach(item -> items.add(of(item)));
            return new Arr(List.copyOf(items));
        }
        if (node.isTextual()) {
            String text = node.textValue();
            return text.startsWith("$") ? new Ref(Slot.named(text.substring(1))) : new Str(text);
        }
        if (node.isNumber()) {
            return new Num(node.asText());
        }
        if (node.isBoolean()) {
            return new Bool(node.booleanValue());
        }
        return new Null();
    }

    /** UTF-8 bytes; references resolved by {@code ids}. */
    static byte[] write(Json value, Function<Slot, String> ids) {
        StringBuilder out = new StringBuilder();
        append(out, value, ids);
        // Lone surrogates were escaped, so the text encodes exactly.
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static void append(StringBuilder out, Json value, Function<Slot, String> ids) {
        if (value instanceof Obj obj) {
            out.append('{');
            boolean first = true;
            for (Map.Entry<String, Json> field : obj.fields()) {
                if (!first) {
                    out.append(',');
                }
                first = false;
                string(out, field.getKey());
                out.append(':');
                append(out, field.getValue(), ids);
            }
            out.append('}');
        } else if (value instanceof Arr arr) {
            out.append('[');
            for (int i = 0; i < arr.items().size(); i++) {
                if (i > 0) {
                    out.append(',');
                }
                append(out, arr.items().get(i), ids);
            }
            out.append(']');
        } else if (value instanceof Str str) {
            string(out, str.value());
        } else if (value instanceof Num num) {
            out.append(num.token());
        } else if (value instanceof Bool bool) {
            out.append(bool.value());
        } else if (value instanceof Raw raw) {
            out.append(raw.text());
        } else if (value instanceof Ref ref) {
            string(out, ids.apply(ref.slot()));
        } else if (value instanceof Deep deep) {
            String open = deep.objects() ? "{\"a\":" : "[";
            String close = deep.objects() ? "}" : "]";
            out.append(open.repeat(deep.depth()));
            append(out, deep.inner(), ids);
            out.append(close.repeat(deep.depth()));
        } else {
            out.append("null");
        }
    }

    private static void string(StringBuilder out, String value) {
        out.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    boolean pair = Character.isHighSurrogate(c) && i + 1 < value.length()
                            && Character.isLowSurrogate(value.charAt(i + 1));
                    if (c < 0x20 || (Character.isSurrogate(c) && !pair)) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else if (pair) {
                        out.append(c).append(value.charAt(++i));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    /** Every place in the value a mutation can reach: the root, then each field and item, depth first. */
    static List<List<Object>> paths(Json value) {
        List<List<Object>> paths = new ArrayList<>();
        collect(value, new ArrayList<>(), paths);
        return paths;
    }

    private static void collect(Json value, List<Object> path, List<List<Object>> paths) {
        paths.add(List.copyOf(path));
        if (value instanceof Obj obj) {
            for (int i = 0; i < obj.fields().size(); i++) {
                path.add(obj.fields().get(i).getKey());
                collect(obj.fields().get(i).getValue(), path, paths);
                path.remove(path.size() - 1);
            }
        } else if (value instanceof Arr arr) {
            for (int i = 0; i < arr.items().size(); i++) {
                path.add(i);
                collect(arr.items().get(i), path, paths);
                path.remove(path.size() - 1);
            }
        }
    }

    /** The node at {@code path}, or null when there is none. */
    static Json at(Json value, List<Object> path) {
        Json node = value;
        for (Object key : path) {
            if (node instanceof Obj obj && key instanceof String name) {
                node = obj.fields().stream().filter(field -> field.getKey().equals(name)).map(Map.Entry::getValue)
                        .findFirst().orElse(null);
            } else if (node instanceof Arr arr && key instanceof Integer index && index < arr.items().size()) {
                node = arr.items().get(index);
            } else {
                return null;
            }
        }
        return node;
    }

    /** {@code value} with the node at {@code path} replaced by {@code edit}'s result (null removes it). */
    static Json edit(Json value, List<Object> path, Function<Json, Json> edit) {
        if (path.isEmpty()) {
            Json edited = edit.apply(value);
            return edited == null ? new Null() : edited;
        }
        Object key = path.get(0);
        List<Object> rest = path.subList(1, path.size());
        if (value instanceof Obj obj && key instanceof String name) {
            List<Map.Entry<String, Json>> fields = new ArrayList<>();
            boolean done = false;
            for (Map.Entry<String, Json> field : obj.fields()) {
                if (!done && field.getKey().equals(name)) {
                    done = true;
                    Json edited = rest.isEmpty() ? edit.apply(field.getValue()) : edit(field.getValue(), rest, edit);
                    if (edited != null) {
                        fields.add(Map.entry(name, edited));
                    }
                } else {
                    fields.add(field);
                }
            }
            return new Obj(fields);
        }
        if (value instanceof Arr arr && key instanceof Integer index && index < arr.items().size()) {
            List<Json> items = new ArrayList<>(arr.items());
            Json edited = rest.isEmpty() ? edit.apply(items.get(index)) : edit(items.get(index), rest, edit);
            if (edited == null) {
                items.remove((int) index);
            } else {
                items.set(index, edited);
            }
            return new Arr(items);
        }
        return value;
    }

    /** Short text for failure reports: long strings and repetitions abbreviated. */
    static String describe(Json value) {
        StringBuilder out = new StringBuilder();
        describe(out, value);
        return out.toString();
    }

    private static void describe(StringBuilder out, Json value) {
        if (value instanceof Obj obj) {
            out.append('{');
            for (int i = 0; i < obj.fields().size(); i++) {
                if (i > 0) {
                    out.append(", ");
                }
                out.append(Text.abbreviate(obj.fields().get(i).getKey())).append(": ");
                describe(out, obj.fields().get(i).getValue());
            }
            out.append('}');
        } else if (value instanceof Arr arr) {
            out.append('[');
            for (int i = 0; i < arr.items().size(); i++) {
                if (i > 0) {
                    out.append(", ");
                }
                describe(out, arr.items().get(i));
            }
            out.append(']');
        } else if (value instanceof Str str) {
            out.append(Text.abbreviate(str.value()));
        } else if (value instanceof Num num) {
            out.append(Text.abbreviateRaw(num.token()));
        } else if (value instanceof Bool bool) {
            out.append(bool.value());
        } else if (value instanceof Raw raw) {
            out.append("raw(").append(Text.abbreviate(raw.text())).append(')');
        } else if (value instanceof Ref ref) {
            out.append('$').append(ref.slot().label());
        } else if (value instanceof Deep deep) {
            out.append(deep.objects() ? "{\"a\":" : "[").append('x').append(deep.depth()).append(' ');
            describe(out, deep.inner());
            out.append(deep.objects() ? " }" : " ]");
        } else {
            out.append("null");
        }
    }
}
