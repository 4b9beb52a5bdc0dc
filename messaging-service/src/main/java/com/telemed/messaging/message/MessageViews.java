package com.telemed.messaging.message;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.telemed.messaging.attachment.Attachment;
import com.telemed.messaging.attachment.Attachments;
import com.telemed.messaging.conversation.ConversationViews;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * The message answers of partner-api.md. A message read back has every field, null where it does
 * not apply; the answer of the call that created it omits those (partner-api.md, Message).
 */
public final class MessageViews {

    private MessageViews() {
    }

    /**
     * A message read back: every field of partner-api.md, Message. {@code html} goes through the
     * allow-list again ({@link MessageHtml}): a no-op for what was cleaned on the way in, and the
     * clean version of html stored before issue #38.
     */
    @JsonPropertyOrder({"id", "conversationId", "senderId", "senderRole", "senderName", "type", "text", "html",
            "attachmentUrl", "attachmentName", "attachmentType", "attachmentSize", "handoffCategory", "createdAt"})
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record Read(UUID id, UUID conversationId, String senderId, String senderRole, String senderName, String type,
                       String text, String html, String attachmentUrl, String attachmentName, String attachmentType,
                       Long attachmentSize, String handoffCategory, Instant createdAt) {

        public static Read of(Message m, Attachments attachments) {
            Attachment a = m.attachment;
            return new Read(m.id, m.conversationId, m.senderId, m.senderRole, m.senderName, m.type, m.text, MessageHtml.clean(m.html),
                    a == null ? null : attachments.link(a), a == null ? null : a.fileName, a == null ? null : a.contentType,
                    a == null ? null : a.sizeBytes, m.handoffCategory, m.createdAt);
        }
    }

    /** A message as the call that created it answers: the fields that apply only. */
    @JsonPropertyOrder({"id", "conversationId", "senderId", "senderRole", "senderName", "type", "text", "html",
            "attachmentUrl", "attachmentName", "attachmentType", "attachmentSize", "handoffCategory", "createdAt"})
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Created(UUID id, UUID conversationId, String senderId, String senderRole, String senderName, String type,
                          String text, String html, String attachmentUrl, String attachmentName, String attachmentType,
                          Long attachmentSize, String handoffCategory, Instant createdAt) {

        public static Created of(Message m, Attachments attachments) {
            Read r = Read.of(m, attachments);
            return new Created(r.id(), r.conversationId(), r.senderId(), r.senderRole(), r.senderName(), r.type(), r.text(),
                    r.html(), r.attachmentUrl(), r.attachmentName(), r.attachmentType(), r.attachmentSize(),
                    r.handoffCategory(), r.createdAt());
        }
    }

    /** {@code { message }} of a created message. */
    public record CreatedEnvelope(Created message) {
    }

    /** {@code { messages, nextCursor }}: oldest first; {@code nextCursor} null on the last page. */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record Page(List<Read> messages, String nextCursor) {
    }

    /** The operator's thread: the conversation, then its page of messages. */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record Thread(ConversationViews.View conversation, List<Read> messages, String nextCursor) {
    }

    /** The internal answer for fulfilment holds. */
    public record UnreadFromPatient(boolean unread) {
    }
}
