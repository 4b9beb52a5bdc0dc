package com.telemed.messaging.conversation;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** The conversation answers of partner-api.md, built from entities, never an entity serialised. */
public final class ConversationViews {

    private ConversationViews() {
    }

    /** A conversation on the wire: exactly the fields of partner-api.md, Conversation. */
    @JsonPropertyOrder({"id", "memberId", "memberName", "memberEmail", "prescriberId", "prescriberName", "partnerId",
            "lastMessageAt", "lastMessagePreview", "lastMessageSenderId", "unreadByMember", "unreadByPrescriber",
            "createdAt", "updatedAt"})
    public record View(UUID id, UUID memberId, String memberName, String memberEmail, UUID prescriberId, String prescriberName,
                       String partnerId, Instant lastMessageAt, String lastMessagePreview, String lastMessageSenderId,
                       int unreadByMember, int unreadByPrescriber, Instant createdAt, Instant updatedAt) {

        public static View of(Conversation c) {
            return new View(c.id, c.memberId, c.memberName, c.memberEmail, c.prescriberId, c.prescriberName, c.partnerId,
                    c.lastMessageAt, c.lastMessagePreview, c.lastMessageSenderId, c.unreadByMember, c.unreadByPrescriber,
                    c.createdAt, c.updatedAt);
        }
    }

    /** {@code { conversation }}. */
    public record Envelope(View conversation) {
    }

    /** {@code { conversation, created }} of {@code for-member}. */
    public record FoundOrCreated(View conversation, boolean created) {
    }

    /** {@code { conversations }}: not paginated. */
    public record Listing(List<View> conversations) {
    }

    /**
     * {@code { conversations, nextCursor }} of the console's list ({@code GET /ops/v1/conversations}): each
     * conversation as the partner API gives it; {@code nextCursor} null on the last page.
     */
    @JsonPropertyOrder({"conversations", "nextCursor"})
    public record Page(List<View> conversations, String nextCursor) {
    }

    /** {@code { unreadCount }}. */
    public record UnreadCount(long unreadCount) {
    }

    /** {@code { success: true }}. */
    public record Success(boolean success) {
        public static final Success TRUE = new Success(true);
    }
}
