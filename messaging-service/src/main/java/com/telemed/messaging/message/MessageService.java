package com.telemed.messaging.message;

import com.telemed.common.audit.AuditTrail;
import com.telemed.common.error.ApiException;
import com.telemed.common.id.Ids;
import com.telemed.common.json.Timestamps;
import com.telemed.messaging.attachment.Attachment;
import com.telemed.messaging.attachment.Attachments;
import com.telemed.messaging.attachment.Upload;
import com.telemed.messaging.conversation.Conversation;
import com.telemed.messaging.conversation.ConversationScope;
import com.telemed.messaging.mail.MailOutbox;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * Posting and reading messages. Every write locks the conversation's row first, so the
 * last-message fields and the unread counters never lose an update, and writes the message, the
 * conversation, the mail and the event in one transaction. An {@code /ops} change writes its audit entry
 * in that transaction too, and a person's read of a thread {@code conversation.read} in the read's own
 * (people-and-pages.md, "Audit"): an audit write that fails rolls the change back or fails the read.
 */
@ApplicationScoped
public class MessageService {

    /** The system message that tells the patient their message went to the partner's support team. */
    static final String HANDOFF_TEXT = "Thanks for your message. Our support team will reply to you shortly.";
    static final String MESSAGE_NOT_FOUND = "Message not found";
    static final String ONLY_PATIENT_MESSAGES = "Only patient messages can be handed off";

    private final Attachments attachments;
    private final MessagingEvents events;
    private final MailOutbox mail;
    private final AuditTrail audit;

    public MessageService(Attachments attachments, MessagingEvents events, MailOutbox mail, AuditTrail audit) {
        this.attachments = attachments;
        this.events = events;
        this.mail = mail;
        this.audit = audit;
    }

    /** A page of the thread, oldest first: {@code limit} messages after the cursor, and the cursor after them. */
    public record Page(List<Message> messages, String nextCursor) {
    }

    /** {@code POST /v1/messages/conversations/:id/messages}: the patient's text, mailed to the prescriber; no event. */
    @Transactional
    public Message postFromPatient(String partnerId, String conversationId, String text) {
        Conversation conversation = Conversation.lockOwned(partnerId, conversationId);
        Instant at = Timestamps.now();
        Message message = Message.create(conversation.id, conversation.memberId.toString(), Message.PATIENT,
                conversation.memberName, Message.TEXT, text, at);
        message.persist();
        conversation.fromPatient(message.senderId, Conversation.textPreview(text), at);
        mail.queue(conversation.prescriberEmail, PrescriberMail.subject(conversation), PrescriberMail.body(conversation, text));
        return message;
    }

    /** The conversation of a patient's upload, checked before the upload itself (403, 404 first). */
    @Transactional
    public void requireOwned(String partnerId, String conversationId) {
        Conversation.requireOwned(partnerId, conversationId);
    }

    /** {@code POST .../attachments}: the patient's file; the prescriber is not mailed, no event. */
    @Transactional
    public Message attachFromPatient(String partnerId, String conversationId, Upload upload) {
        Conversation conversation = Conversation.lockOwned(partnerId, conversationId);
        Message message = attachment(conversation, conversation.memberId.toString(), Message.PATIENT, conversation.memberName, upload);
        conversation.fromPatient(message.senderId, Conversation.attachmentPreview(message.text), message.createdAt);
        return message;
    }

    /**
     * {@code POST /ops/v1/conversations/:id/prescriber-messages}: text or templated html, the html
     * cleaned against the allow-list before it is stored or sent ({@link MessageHtml}; never refused
     * for it); {@code message.new}.
     */
    @Transactional
    public Message postFromPrescriber(ConversationScope scope, String conversationId, MessageInput.PrescriberMessage input) {
        Conversation conversation = Conversation.lockIn(scope, conversationId);
        Instant at = Timestamps.now();
        Message message = Message.create(conversation.id, conversation.prescriberId.toString(), Message.PRESCRIBER,
                conversation.prescriberName, input.html() == null ? Message.TEXT : Message.HTML, input.text(), at);
        message.html = MessageHtml.clean(input.html());
        message.persist();
        conversation.toPatient(message.senderId, Conversation.textPreview(input.text()), at);
        events.messageNew(conversation, message, input.subject());
        audit.record("message.create", "message", message.id.toString(), conversation.partnerId);
        return message;
    }

    /** {@code POST /ops/v1/conversations/:id/prescriber-attachments}: the prescriber's file; no event. */
    @Transactional
    public Message attachFromPrescriber(ConversationScope scope, String conversationId, Upload upload) {
        Conversation conversation = Conversation.lockIn(scope, conversationId);
        Message message = attachment(conversation, conversation.prescriberId.toString(), Message.PRESCRIBER,
                conversation.prescriberName, upload);
        conversation.toPatient(message.senderId, Conversation.attachmentPreview(message.text), message.createdAt);
        audit.record("message.attach", "message", message.id.toString(), conversation.partnerId);
        return message;
    }

    /** Checks an {@code /ops} caller's conversation before its upload is read (404 first). */
    @Transactional
    public void requireIn(ConversationScope scope, String conversationId) {
        Conversation.requireIn(scope, conversationId);
    }

    /**
     * A status message from the service into a conversation the caller holds locked:
     * {@code message.system}, one more unread by the member.
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public Message postSystem(Conversation conversation, String text) {
        Message message = system(conversation, text);
        events.messageSystem(conversation, message);
        return message;
    }

    /**
     * {@code POST /ops/v1/conversations/:id/messages/:messageId/handoff}: sets {@code handoffCategory}
     * on the patient's message (again on a second handoff), posts the system message to the patient
     * (no {@code message.system}) and publishes {@code message.handoff}.
     */
    @Transactional
    public Message handOff(ConversationScope scope, String conversationId, String messageId, MessageInput.Handoff input) {
        Conversation conversation = Conversation.lockIn(scope, conversationId);
        Message original = Ids.uuid(messageId).flatMap(id -> Message.inConversation(conversation.id, id))
                .orElseThrow(() -> ApiException.notFound(MESSAGE_NOT_FOUND));
        if (!Message.PATIENT.equals(original.senderRole)) {
            throw ApiException.badRequest(ONLY_PATIENT_MESSAGES);
        }
        original.handoffCategory = input.category();
        Message notice = system(conversation, HANDOFF_TEXT);
        events.handoff(conversation, original, input.category(), input.note(), notice.createdAt);
        audit.record("message.handoff", "message", original.id.toString(), conversation.partnerId);
        return original;
    }

    /** {@code POST /ops/v1/conversations/:id/prescriber-read}: the patient's messages count as read by a prescriber. */
    @Transactional
    public void readByPrescriber(ConversationScope scope, String conversationId) {
        Conversation conversation = Conversation.lockIn(scope, conversationId);
        Instant at = Timestamps.now();
        conversation.readByPrescriber(at);
        Message.markReadByPrescriber(conversation.id, at);
        audit.record("conversation.mark_read", "conversation", conversation.id.toString(), conversation.partnerId);
    }

    /**
     * {@code GET /ops/v1/conversations/:id/messages}: the conversation, if the scope reaches it, and a
     * page of its thread; a person's read is audited ({@code conversation.read}) in this transaction.
     */
    @Transactional
    public PrescriberThread thread(ConversationScope scope, String conversationId, int limit, String cursor) {
        Conversation conversation = Conversation.requireIn(scope, conversationId);
        PrescriberThread thread = new PrescriberThread(conversation, page(conversation, limit, cursor));
        audit.recordRead("conversation.read", "conversation", conversation.id.toString(), conversation.partnerId);
        return thread;
    }

    /** A conversation and a page of its thread. */
    public record PrescriberThread(Conversation conversation, Page page) {
    }

    /** A page of a thread the caller may read, after {@code cursor} (null: from the start). */
    @Transactional
    public Page page(Conversation conversation, int limit, String cursor) {
        long after = cursor == null ? 0 : Cursor.decode(cursor);
        List<Message> found = Message.page(conversation.id, after, limit + 1);
        boolean more = found.size() > limit;
        List<Message> page = more ? found.subList(0, limit) : found;
        return new Page(List.copyOf(page), more ? Cursor.encode(page.get(page.size() - 1).seq) : null);
    }

    /** Whether the member has a patient message sent after {@code since} that no prescriber read. */
    @Transactional
    public boolean unreadFromPatientSince(String partnerId, UUID memberId, Instant since) {
        return Message.unreadFromPatientSince(partnerId, memberId, since);
    }

    public MessageViews.Read view(Message message) {
        return MessageViews.Read.of(message, attachments);
    }

    public MessageViews.Created created(Message message) {
        return MessageViews.Created.of(message, attachments);
    }

    private Message system(Conversation conversation, String text) {
        Instant at = Timestamps.now();
        Message message = Message.create(conversation.id, Message.SYSTEM, Message.SYSTEM, SYSTEM_NAME, Message.SYSTEM, text, at);
        message.persist();
        conversation.toPatient(Message.SYSTEM, Conversation.textPreview(text), at);
        return message;
    }

    private Message attachment(Conversation conversation, String senderId, String role, String senderName, Upload upload) {
        Instant at = Timestamps.now();
        Attachment attachment = attachments.store(conversation.partnerId, conversation.id, upload, at);
        Message message = Message.create(conversation.id, senderId, role, senderName, Message.ATTACHMENT, attachment.fileName, at);
        message.attachment = attachment;
        message.persist();
        return message;
    }

    /** {@code senderName} of system messages. */
    static final String SYSTEM_NAME = "System";
}
