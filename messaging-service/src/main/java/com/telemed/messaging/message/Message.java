package com.telemed.messaging.message;

import com.telemed.messaging.attachment.Attachment;
import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * A message of a conversation (table {@code messages}). {@code seq}, assigned by the database,
 * orders a thread and its cursor. Holds patient data (the text, a file name): never log it.
 */
@Entity
@Table(name = "messages")
public class Message extends PanacheEntityBase {

    public static final String PATIENT = "patient";
    public static final String PRESCRIBER = "prescriber";
    public static final String SYSTEM = "system";

    public static final String TEXT = "text";
    public static final String ATTACHMENT = "attachment";
    public static final String HTML = "html";

    @Id
    @Column(name = "id", nullable = false, updatable = false)
    public UUID id;

    @Column(name = "seq", insertable = false, updatable = false)
    public Long seq;

    @Column(name = "conversation_id", nullable = false, updatable = false)
    public UUID conversationId;

    @Column(name = "sender_id", nullable = false, updatable = false)
    public String senderId;

    @Column(name = "sender_role", nullable = false, updatable = false)
    public String senderRole;

    @Column(name = "sender_name", nullable = false, updatable = false)
    public String senderName;

    @Column(name = "type", nullable = false, updatable = false)
    public String type;

    @Column(name = "text", nullable = false, updatable = false)
    public String text;

    @Column(name = "html", updatable = false)
    public String html;

    @ManyToOne(fetch = FetchType.LAZY)
    @JoinColumn(name = "attachment_id", updatable = false)
    public Attachment attachment;

    @Column(name = "handoff_category")
    public String handoffCategory;

    @Column(name = "prescriber_read_at")
    public Instant prescriberReadAt;

    @Column(name = "created_at", nullable = false, updatable = false)
    public Instant createdAt;

    static Message create(UUID conversationId, String senderId, String senderRole, String senderName, String type, String text,
                          Instant at) {
        Message message = new Message();
        message.id = UUID.randomUUID();
        message.conversationId = conversationId;
        message.senderId = senderId;
        message.senderRole = senderRole;
        message.senderName = senderName;
        message.type = type;
        message.text = text;
        message.createdAt = at;
        return message;
    }

    /** Up to {@code limit} messages of the thread after {@code afterSeq}, oldest first, with their attachments. */
    static List<Message> page(UUID conversationId, long afterSeq, int limit) {
        return find("from Message m left join fetch m.attachment where m.conversationId = ?1 and m.seq > ?2 order by m.seq",
                conversationId, afterSeq).page(0, limit).list();
    }

    static Optional<Message> inConversation(UUID conversationId, UUID id) {
        return find("from Message m left join fetch m.attachment where m.id = ?1 and m.conversationId = ?2", id, conversationId)
                .firstResultOptional();
    }

    /** The patient's messages of the thread that no prescriber read yet now count as read at {@code at}. */
    static int markReadByPrescriber(UUID conversationId, Instant at) {
        return update("prescriberReadAt = ?1 where conversationId = ?2 and senderRole = ?3 and prescriberReadAt is null",
                at, conversationId, PATIENT);
    }

    /**
     * Whether the member has a patient message, sent with this partner after {@code since}, that no
     * prescriber has read (fulfilment's hold, partner-api.md send-to-pharmacy).
     */
    static boolean unreadFromPatientSince(String partnerId, UUID memberId, Instant since) {
        return getEntityManager().createQuery("select m.id from Message m, Conversation c where m.conversationId = c.id"
                        + " and c.partnerId = :partner and c.memberId = :member and m.senderRole = :patient"
                        + " and m.prescriberReadAt is null and m.createdAt > :since", UUID.class)
                .setParameter("partner", partnerId)
                .setParameter("member", memberId)
                .setParameter("patient", PATIENT)
                .setParameter("since", since)
                .setMaxResults(1)
                .getResultList()
                .size() == 1;
    }
}
