package com.telemed.messaging.message;

/** The bodies of the message endpoints once validated ({@link MessageSchemas}). */
public final class MessageInput {

    private MessageInput() {
    }

    /** {@code POST /v1/messages/conversations/:id/messages}. */
    public record PatientText(String text) {
    }

    /** {@code POST /ops/v1/conversations/:id/prescriber-messages}: {@code { text }} or {@code { html, text, subject }}. */
    public record PrescriberMessage(String text, String html, String subject) {
    }

    /** {@code POST /ops/v1/conversations/:id/messages/:messageId/handoff}. */
    public record Handoff(String category, String note) {
    }
}
