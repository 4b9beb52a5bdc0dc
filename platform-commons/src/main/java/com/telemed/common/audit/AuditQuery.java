package com.telemed.common.audit;

import static com.telemed.common.validation.Schemas.number;
import static com.telemed.common.validation.Schemas.object;
import static com.telemed.common.validation.Schemas.string;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.telemed.common.validation.Issues;
import com.telemed.common.validation.NumberSchema;
import com.telemed.common.validation.ObjectSchema;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Which audit entries a read wants: the filters of people-and-pages.md, "Audit" (each exact; {@code from}
 * inclusive, {@code to} exclusive, ISO-8601 instants with {@code Z} or an offset), at most {@code limit}
 * (1 to {@value #MAX_LIMIT}, {@value #DEFAULT_LIMIT} when not sent), newest first, strictly older than
 * {@code before} when given. Query parameters are validated as every query is (platform-commons
 * {@code validation}, Zod's issues, all at once): {@link #internal} for {@code GET /internal/audit}
 * ({@code beforeAt} and {@code beforeId}, both or neither), {@link #cursor} for the gateway's
 * {@code GET /ops/v1/audit} (its opaque {@code after}).
 */
public record AuditQuery(Optional<String> actor, Optional<String> action, Optional<String> targetId,
                         Optional<Instant> from, Optional<Instant> to, int limit, Optional<AuditCursor> before) {

    public static final int DEFAULT_LIMIT = 50;
    public static final int MAX_LIMIT = 200;
    /** Longer than any id the platform writes (principal ids: 128; UUIDs: 36). */
    static final int FILTER_MAX = 200;
    static final String INVALID_CURSOR = "Invalid cursor";
    static final String CURSOR_HALF = "beforeAt and beforeId go together";

    private static final Pattern UUID_TEXT = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

    private static ObjectSchema filters() {
        return object()
                .field("actor", string().min(1).max(FILTER_MAX).optional())
                .field("action", string().min(1).max(FILTER_MAX).optional())
                .field("targetId", string().min(1).max(FILTER_MAX).optional())
                .field("from", instant())
                .field("to", instant())
                .field("limit", number().coerce().integer().min(1).max(MAX_LIMIT).optional());
    }

    /**
     * An ISO-8601 instant with {@code Z} or an offset whose UTC year has four digits too: the gateway passes it
     * on in UTC ({@code 0000-01-01T00:00:00+01:00} would become year -1, which no service reads back).
     */
    private static com.telemed.common.validation.StringSchema instant() {
        return string().datetimeWithOffset()
                .refine(value -> {
                    int year = OffsetDateTime.parse(value.textValue()).toInstant().atOffset(java.time.ZoneOffset.UTC).getYear();
                    return year >= 0 && year <= 9999;
                }, "Invalid datetime")
                .optional();
    }

    static final ObjectSchema INTERNAL = filters()
            .field("beforeAt", instant())
            .field("beforeId", string().regex(UUID_TEXT, "Invalid uuid").optional())
            .rule(AuditQuery::bothOrNeither);

    static final ObjectSchema CURSOR = filters()
            .field("after", string().refine(value -> AuditCursor.decode(value.textValue()).isPresent(), INVALID_CURSOR)
                    .optional());

    public AuditQuery {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit 1.." + MAX_LIMIT + ", not " + limit);
        }
    }

    /** {@code GET /internal/audit}'s parameters (null: not sent); a {@code ValidationException} lists every issue. */
    public static AuditQuery internal(String actor, String action, String targetId, String from, String to, String limit,
                                      String beforeAt, String beforeId) {
        ObjectNode sent = sent(actor, action, targetId, from, to, limit);
        put(sent, "beforeAt", beforeAt);
        put(sent, "beforeId", beforeId);
        INTERNAL.validate(sent);
        Optional<AuditCursor> before = beforeAt == null ? Optional.empty()
                : Optional.of(new AuditCursor(instant(beforeAt), UUID.fromString(beforeId)));
        return bind(sent, before);
    }

    /** The gateway's {@code GET /ops/v1/audit} parameters, with its opaque cursor {@code after}. */
    public static AuditQuery cursor(String actor, String action, String targetId, String from, String to, String limit,
                                    String after) {
        ObjectNode sent = sent(actor, action, targetId, from, to, limit);
        put(sent, "after", after);
        CURSOR.validate(sent);
        return bind(sent, after == null ? Optional.empty() : AuditCursor.decode(after));
    }

    /** The same filters and limit, for the entries older than {@code cursor}. */
    public AuditQuery before(Optional<AuditCursor> cursor) {
        return new AuditQuery(actor, action, targetId, from, to, limit, cursor);
    }

    /** The same filters and cursor, at most {@code count} entries. */
    public AuditQuery limit(int count) {
        return new AuditQuery(actor, action, targetId, from, to, count, before);
    }

    /** Whether {@code entry} passes the filters and the cursor (what the SQL of {@link AuditEntries} selects). */
    public boolean matches(AuditEntry entry) {
        return actor.map(entry.actorId()::equals).orElse(true)
                && action.map(entry.action()::equals).orElse(true)
                && targetId.map(id -> id.equals(entry.targetId())).orElse(true)
                && from.map(start -> !entry.at().isBefore(start)).orElse(true)
                && to.map(entry.at()::isBefore).orElse(true)
                && before.map(cursor -> AuditEntry.NEWEST_FIRST.compare(entry, new AuditEntry(cursor.id(), cursor.at(),
                        null, null, null, null, null, null)) > 0).orElse(true);
    }

    private static void bothOrNeither(JsonNode object, java.util.List<Object> path, Issues issues) {
        boolean at = object.hasNonNull("beforeAt");
        boolean id = object.hasNonNull("beforeId");
        if (at != id) {
            issues.custom(Issues.append(path, at ? "beforeId" : "beforeAt"), CURSOR_HALF);
        }
    }

    private static ObjectNode sent(String actor, String action, String targetId, String from, String to, String limit) {
        ObjectNode sent = JsonNodeFactory.instance.objectNode();
        put(sent, "actor", actor);
        put(sent, "action", action);
        put(sent, "targetId", targetId);
        put(sent, "from", from);
        put(sent, "to", to);
        put(sent, "limit", limit);
        return sent;
    }

    private static AuditQuery bind(ObjectNode sent, Optional<AuditCursor> before) {
        return new AuditQuery(text(sent, "actor"), text(sent, "action"), text(sent, "targetId"),
                text(sent, "from").map(AuditQuery::instant), text(sent, "to").map(AuditQuery::instant),
                sent.has("limit") ? NumberSchema.read(sent.get("limit")).intValueExact() : DEFAULT_LIMIT, before);
    }

    private static void put(ObjectNode sent, String name, String value) {
        if (value != null) {
            sent.put(name, value);
        }
    }

    private static Optional<String> text(ObjectNode sent, String name) {
        return sent.has(name) ? Optional.of(sent.get(name).textValue()) : Optional.empty();
    }

    private static Instant instant(String text) {
        return OffsetDateTime.parse(text).toInstant();
    }
}
