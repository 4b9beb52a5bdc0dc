package com.telemed.messaging.conversation;

import static com.telemed.common.validation.Schemas.object;
import static com.telemed.common.validation.Schemas.string;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.common.error.ApiException;
import com.telemed.common.validation.Binding;
import com.telemed.common.validation.ObjectSchema;
import com.telemed.common.validation.ValidationException;

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

    /** {@code POST /conversations/for-member}. */
    public record ForMemberInput(String memberId) {
    }

    /** {@code POST /conversations}. */
    public record PairInput(String memberId, String prescriberId) {
    }

    private ConversationSchemas() {
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
