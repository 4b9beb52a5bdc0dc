package com.telemed.messaging.message;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.telemed.common.event.EventEnvelope;
import com.telemed.common.event.EventSubject;
import com.telemed.common.json.Timestamps;
import com.telemed.common.outbox.Outbox;
import com.telemed.messaging.conversation.Conversation;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.UUID;

/**
 * The {@code messaging.events} of messages, written to the outbox in the transaction that posts
 * the message; key = conversation id, so one thread's events stay in order (its writers hold the
 * conversation's row lock). {@code webhook} is exactly the partner payload of partner-api.md
 * ("Payloads"); {@code data} names the conversation, the message, the member and the prescriber
 * for internal consumers, no text.
 */
@ApplicationScoped
public class MessagingEvents {

    public static final String TOPIC = "messaging.events";

    public static final String MESSAGE_NEW = "message.new";
    public static final String MESSAGE_SYSTEM = "message.system";
    public static final String MESSAGE_HANDOFF = "message.handoff";

    private final Outbox outbox;

    public MessagingEvents(Outbox outbox) {
        this.outbox = outbox;
    }

    /**
     * {@code message.new}: a prescriber's text, or a templated html message with its plain-text
     * rendering ({@code messagePreview}), {@code messageHtml} and {@code subject}.
     */
    void messageNew(Conversation conversation, Message message, String subject) {
        ObjectNode webhook = JsonNodeFactory.instance.objectNode()
                .put("event", MESSAGE_NEW)
                .put("memberId", conversation.memberId.toString())
                .put("prescriberName", conversation.prescriberName)
                .put("messagePreview", message.text);
        if (message.html != null) {
            webhook.put("messageHtml", message.html).put("subject", subject);
        }
        webhook.put("conversationId", conversation.id.toString()).put("timestamp", Timestamps.format(message.createdAt));
        publish(MESSAGE_NEW, conversation, message, webhook);
    }

    /** {@code message.system}: a status message the service posted (never the handoff's). */
    void messageSystem(Conversation conversation, Message message) {
        ObjectNode webhook = JsonNodeFactory.instance.objectNode()
                .put("event", MESSAGE_SYSTEM)
                .put("memberId", conversation.memberId.toString())
                .put("messagePreview", message.text)
                .put("conversationId", conversation.id.toString())
                .put("timestamp", Timestamps.format(message.createdAt));
        publish(MESSAGE_SYSTEM, conversation, message, webhook);
    }

    /** {@code message.handoff}: the original patient message handed to the partner's support team. */
    void handoff(Conversation conversation, Message original, String category, String note, Instant at) {
        ObjectNode webhook = JsonNodeFactory.instance.objectNode()
                .put("event", MESSAGE_HANDOFF)
                .put("memberId", conversation.memberId.toString())
                .put("conversationId", conversation.id.toString())
                .put("messageId", original.id.toString())
                .put("text", original.text)
                .put("category", category)
                .put("prescriberName", conversation.prescriberName);
        if (note != null) {
            webhook.put("note", note);
        }
        webhook.put("timestamp", Timestamps.format(at));
        publish(MESSAGE_HANDOFF, conversation, original, webhook);
    }

    private void publish(String type, Conversation conversation, Message message, ObjectNode webhook) {
        ObjectNode data = JsonNodeFactory.instance.objectNode()
                .put("conversationId", conversation.id.toString())
                .put("messageId", message.id.toString())
                .put("memberId", conversation.memberId.toString())
                .put("prescriberId", conversation.prescriberId.toString());
        EventSubject subject = EventSubject.member(conversation.memberId.toString()).withPrescriber(conversation.prescriberId.toString());
        outbox.publish(TOPIC, conversation.id.toString(), new EventEnvelope(UUID.randomUUID().toString(), type,
                conversation.partnerId, Timestamps.now(), subject, data, webhook));
    }
}
