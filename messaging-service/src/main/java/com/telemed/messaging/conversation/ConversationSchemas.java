package com.telemed.messaging.conversation;

import static com.telemed.common.validation.Schemas.enumOf;
import static com.telemed.common.validation.Schemas.number;
import static com.telemed.common.validation.Schemas.object;
import static com.telemed.common.validation.Schemas.string;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.telemed.common.error.ApiException;
import com.telemed.common.validation.Binding;
import com.telemed.common.validation.NumberSchema;
import com.telemed.common.validation.ObjectSchema;
import com.telemed.common.validation.ValidationException;
import java.util.Optional;

/**
 * The bodies of the conversation endpoints. Their errors are strings, not issue arrays
 * (partner-api.md, Errors): the message of the first failing field, {@code Required} when it is
 * missing, {@code <field> is required} when it is empty (decisions.md: {@code prescriberId is
 * required}), Zod's text otherwise ({@code Expected string, received number}).
 */
public final class ConversationSchemas {

    static final ObjectSchema FOR_MEMBER = object()
            .field("memberId", required("memberId"));

    static final ObjectSchema PAIR = object()
            .field("memberId", required("memberId"))
            .field("prescriberId", required("prescriberId"));

    public static final String MEMBER_ID_QUERY_REQUIRED = "memberId query parameter is required";

    /** The console's list of threads ({@code GET /ops/v1/conversations}): {@code limit} 1 to 100, 50 when not sent. */
    static final int DEFAULT_LIMIT = 50;
    static final int MAX_LIMIT = 100;
    static final String INVALID_CURSOR = "Invalid cursor";

    /**
     * The list's query parameters, validated as every {@code /ops} query is (Zod's issues, all at once):
     * {@code limit}, the opaque {@code after} a previous page's {@code nextCursor} gave, {@code unread}
     * ({@code true}: only threads with patient messages the prescriber has not read).
     */
    static final ObjectSchema LIST_QUERY = object()
            .field("limit", number().coerce().integer().min(1).max(MAX_LIMIT).optional())
            .field("after", string().refine(value -> ConversationCursor.decode(value.textValue()).isPresent(), INVALID_CURSOR)
                    .optional())
            .field("unread", enumOf("true", "false").optional());

    /** {@code POST /conversations/for-member}. */
    public record ForMemberInput(String memberId) {
    }

    /** {@code POST /conversations}. */
    public record PairInput(String memberId, String prescriberId) {
    }

    /** {@code GET /ops/v1/conversations}. */
    public record ListQuery(int limit, Optional<ConversationCursor> after, boolean unreadOnly) {
    }

    private ConversationSchemas() {
    }

    /** The list's parameters (null: not sent); a {@code ValidationException} lists every issue ({@code 400}). */
    static ListQuery listQuery(String limit, String after, String unread) {
        ObjectNode query = JsonNodeFactory.instance.objectNode();
        put(query, "limit", limit);
        put(query, "after", after);
        put(query, "unread", unread);
        LIST_QUERY.validate(query);
        return new ListQuery(limit == null ? DEFAULT_LIMIT : NumberSchema.read(query.get("limit")).intValueExact(),
                after == null ? Optional.empty() : ConversationCursor.decode(after), "true".equals(unread));
    }

    private static void put(ObjectNode query, String name, String value) {
        if (value != null) {
            query.put(name, value);
        }
    }

    /** Validates and binds, answering {@code 400 {"error": "<first issue's message>"}}. */
    static <T> T bind(ObjectSchema schema, JsonNode body, Class<T> type) {
        try {
            return Binding.bind(schema, body, type);
        } catch (ValidationException invalid) {
            throw ApiException.badRequest(invalid.issues().get(0).message());
        }
    }

    /** The required {@code memberId} query parameter of the list and the unread count. */
    static String memberIdQuery(String memberId) {
        if (memberId == null || memberId.isEmpty()) {
            throw ApiException.badRequest(MEMBER_ID_QUERY_REQUIRED);
        }
        return memberId;
    }

    private static com.telemed.common.validation.StringSchema required(String field) {
        return string().refine(value -> !value.asText().isEmpty(), field + " is required");
    }
}
