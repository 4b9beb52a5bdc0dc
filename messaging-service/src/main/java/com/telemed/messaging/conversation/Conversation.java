package com.telemed.messaging.conversation;

import com.telemed.common.error.ApiException;
import com.telemed.common.id.Ids;
import com.telemed.messaging.members.MemberCard;
import com.telemed.messaging.requests.PrescriberCard;
import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.LockModeType;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * A conversation between a member and a prescriber (table {@code conversations}): identified by
 * the (partner, member, prescriber) triple. The member's name and email and the prescriber's name
 * and email are cached at creation. Holds patient data: never log it.
 */
@Entity
@Table(name = "conversations")
public class Conversation extends PanacheEntityBase {

    /** {@code lastMessagePreview}: the first 80 characters of a text. */
    static final int PREVIEW_LENGTH = 80;
    /** {@code lastMessagePreview} of an attachment: the file name behind a paperclip. */
    static final String PAPERCLIP = "\uD83D\uDCCE ";

    public static final String NOT_FOUND = "Conversation not found";
    public static final String NOT_THE_PARTNERS = "Conversation does not belong to this partner";

    @Id
    @Column(name = "id", nullable = false, updatable = false)
    public UUID id;

    @Column(name = "partner_id", nullable = false, updatable = false)
    public String partnerId;

    @Column(name = "member_id", nullable = false, updatable = false)
    public UUID memberId;

    @Column(name = "member_name", nullable = false, updatable = false)
    public String memberName;

    @Column(name = "member_email", nullable = false, updatable = false)
    public String memberEmail;

    @Column(name = "prescriber_id", nullable = false, updatable = false)
    public UUID prescriberId;

    @Column(name = "prescriber_name", nullable = false, updatable = false)
    public String prescriberName;

    @Column(name = "prescriber_email", nullable = false, updatable = false)
    public String prescriberEmail;

    @Column(name = "last_message_at", nullable = false)
    public Instant lastMessageAt;

    @Column(name = "last_message_preview", nullable = false)
    public String lastMessagePreview;

    @Column(name = "last_message_sender_id", nullable = false)
    public String lastMessageSenderId;

    @Column(name = "unread_by_member", nullable = false)
    public int unreadByMember;

    @Column(name = "unread_by_prescriber", nullable = false)
    public int unreadByPrescriber;

    @Column(name = "created_at", nullable = false, updatable = false)
    public Instant createdAt;

    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;

    /**
     * Inserts the conversation of this triple unless it exists, returning whether it was inserted.
     * The unique key arbitrates: of two concurrent creates one inserts, the other waits for it and
     * inserts nothing (native: JPQL has no {@code ON CONFLICT}); no statement fails, so nothing
     * is rolled back and no driver message, which would quote the row, is logged.
     */
    public static boolean insertUnlessExists(String partnerId, MemberCard member, PrescriberCard prescriber, Instant at) {
        int inserted = getEntityManager().createNativeQuery("INSERT INTO conversations (id, partner_id, member_id, member_name,"
                        + " member_email, prescriber_id, prescriber_name, prescriber_email, last_message_at, last_message_preview,"
                        + " last_message_sender_id, unread_by_member, unread_by_prescriber, created_at, updated_at)"
                        + " VALUES (:id, :partner, :member, :memberName, :memberEmail, :prescriber, :prescriberName, :prescriberEmail,"
                        + " :at, '', '', 0, 0, :at, :at) ON CONFLICT ON CONSTRAINT conversations_pair_key DO NOTHING")
                .setParameter("id", UUID.randomUUID())
                .setParameter("partner", partnerId)
                .setParameter("member", member.id())
                .setParameter("memberName", member.name())
                .setParameter("memberEmail", member.email())
                .setParameter("prescriber", prescriber.id())
                .setParameter("prescriberName", prescriber.name())
                .setParameter("prescriberEmail", prescriber.email())
                .setParameter("at", at)
                .executeUpdate();
        return inserted == 1;
    }

    public static Optional<Conversation> findPair(String partnerId, UUID memberId, UUID prescriberId) {
        return find("partnerId = ?1 and memberId = ?2 and prescriberId = ?3", partnerId, memberId, prescriberId)
                .firstResultOptional();
    }

    /** As {@link #findPair}, holding the row lock until commit. */
    public static Optional<Conversation> lockPair(String partnerId, UUID memberId, UUID prescriberId) {
        return find("partnerId = ?1 and memberId = ?2 and prescriberId = ?3", partnerId, memberId, prescriberId)
                .withLock(LockModeType.PESSIMISTIC_WRITE).firstResultOptional();
    }

    /** The member's conversations with this partner, most recently active first. */
    public static List<Conversation> ofMember(String partnerId, UUID memberId) {
        return list("partnerId = ?1 and memberId = ?2 order by lastMessageAt desc, createdAt desc, id", partnerId, memberId);
    }

    /**
     * The partner's conversation: {@code 404 Conversation not found} for an unknown (or malformed)
     * id, {@code 403 Conversation does not belong to this partner} for another partner's
     * (messaging's ownership rule, partner-api.md Authentication rule 9).
     */
    public static Conversation requireOwned(String partnerId, String id) {
        Conversation conversation = requireAny(id);
        if (!conversation.partnerId.equals(partnerId)) {
            throw new ApiException(403, NOT_THE_PARTNERS);
        }
        return conversation;
    }

    /** As {@link #requireOwned}, holding the row lock until commit: every writer takes it, so counters never lose an update. */
    public static Conversation lockOwned(String partnerId, String id) {
        Conversation conversation = lockAny(id);
        if (!conversation.partnerId.equals(partnerId)) {
            throw new ApiException(403, NOT_THE_PARTNERS);
        }
        return conversation;
    }

    /**
     * Any partner's conversation the {@code /ops} caller's scope reaches: {@code 404 Conversation not
     * found} when unknown or not theirs (a prescriber in person: their own only).
     */
    public static Conversation requireIn(ConversationScope scope, String id) {
        return scope.check(requireAny(id));
    }

    /** As {@link #requireIn}, holding the row lock until commit. */
    public static Conversation lockIn(ConversationScope scope, String id) {
        return scope.check(lockAny(id));
    }

    /** Any partner's conversation: {@code 404 Conversation not found} when unknown. */
    public static Conversation requireAny(String id) {
        return Ids.uuid(id).flatMap(uuid -> Conversation.<Conversation>findByIdOptional(uuid))
                .orElseThrow(() -> ApiException.notFound(NOT_FOUND));
    }

    /** As {@link #requireAny}, holding the row lock until commit. */
    public static Conversation lockAny(String id) {
        return Ids.uuid(id).flatMap(uuid -> Conversation.<Conversation>findByIdOptional(uuid, LockModeType.PESSIMISTIC_WRITE))
                .orElseThrow(() -> ApiException.notFound(NOT_FOUND));
    }

    /** A thread of the console's list and its place in the list's order as of the first page ({@link ConversationCursor}). */
    public record Placed(Conversation conversation, boolean unread, Instant lastMessageAt) {
    }

    /**
     * Up to {@code limit} threads of the console's list ({@code GET /ops/v1/conversations}) that the scope
     * reaches, in the list's order as of {@code asOf} ({@link ConversationCursor}): threads with patient
     * messages the prescriber had not read first, then the latest message first, the id breaking ties;
     * strictly after {@code after} when given; only the unread ones with {@code unreadOnly}; none created
     * after {@code asOf}. A thread not changed since {@code asOf} (every change of its place writes
     * {@code updated_at}, under its row lock) stands where its columns put it, read in order by the index
     * {@code conversations_console_idx} (a prescriber's: {@code conversations_prescriber_console_idx};
     * V7); one changed since (found by {@code conversations_updated_idx}, few) is placed by its messages as
     * they were at {@code asOf}: its latest message then, and whether a patient message of then was not yet
     * read by a prescriber. Native: JPQL has no row comparison. The answer shows each thread as it is now.
     */
    public static List<Placed> console(ConversationScope scope, boolean unreadOnly, Instant asOf,
                                       Optional<ConversationCursor> after, int limit) {
        if (!scope.any() && scope.prescriberId() == null) {
            return List.of();
        }
        String prescriber = scope.any() ? "" : " and c.prescriber_id = :prescriber";
        String unchanged = "select c.id, (c.unread_by_prescriber > 0) as k_unread, c.last_message_at as k_at from conversations c"
                + " where c.updated_at <= :asOf" + prescriber
                + (unreadOnly ? " and (c.unread_by_prescriber > 0)" : "")
                + (after.isPresent() ? " and ((c.unread_by_prescriber > 0), c.last_message_at, c.id) < (:unread, :at, :id)" : "")
                + " order by (c.unread_by_prescriber > 0) desc, c.last_message_at desc, c.id desc limit :limit";
        // 'patient': message.Message.PATIENT (this package does not depend on message, which depends on it).
        String changed = "select k.id, k.k_unread, k.k_at from (select c.id,"
                + " exists (select 1 from messages m where m.conversation_id = c.id and m.sender_role = 'patient'"
                + " and m.created_at <= :asOf and (m.prescriber_read_at is null or m.prescriber_read_at > :asOf)) as k_unread,"
                + " coalesce((select max(m.created_at) from messages m where m.conversation_id = c.id and m.created_at <= :asOf),"
                + " c.created_at) as k_at"
                + " from conversations c where c.updated_at > :asOf and c.created_at <= :asOf" + prescriber + ") k where true"
                + (unreadOnly ? " and k.k_unread" : "")
                + (after.isPresent() ? " and (k.k_unread, k.k_at, k.id) < (:unread, :at, :id)" : "");
        jakarta.persistence.Query query = getEntityManager().createNativeQuery("select p.id, p.k_unread, p.k_at from ((" + unchanged
                        + ") union all (" + changed + ")) p order by p.k_unread desc, p.k_at desc, p.id desc limit :limit")
                .setParameter("asOf", asOf)
                .setParameter("limit", limit);
        if (!scope.any()) {
            query.setParameter("prescriber", scope.prescriberId());
        }
        after.ifPresent(cursor -> query.setParameter("unread", cursor.unread())
                .setParameter("at", cursor.lastMessageAt())
                .setParameter("id", cursor.id()));
        @SuppressWarnings("unchecked")
        List<Object[]> rows = query.getResultList();
        if (rows.isEmpty()) {
            return List.of();
        }
        java.util.Map<UUID, Conversation> byId = Conversation.<Conversation>list("id in ?1",
                        rows.stream().map(row -> (UUID) row[0]).toList()).stream()
                .collect(java.util.stream.Collectors.toMap(conversation -> conversation.id, conversation -> conversation));
        return rows.stream().map(row -> new Placed(byId.get((UUID) row[0]), (Boolean) row[1], instant(row[2]))).toList();
    }

    private static Instant instant(Object value) {
        if (value instanceof Instant instant) {
            return instant;
        }
        if (value instanceof java.time.OffsetDateTime offset) {
            return offset.toInstant();
        }
        if (value instanceof java.sql.Timestamp timestamp) {
            return timestamp.toInstant();
        }
        throw new IllegalStateException("a timestamp column read as " + value.getClass().getName());
    }

    /** The total of messages unread by the member across their conversations with this partner. */
    public static long unreadByMember(String partnerId, UUID memberId) {
        Long total = getEntityManager()
                .createQuery("select coalesce(sum(c.unreadByMember), 0) from Conversation c"
                        + " where c.partnerId = :partner and c.memberId = :member", Long.class)
                .setParameter("partner", partnerId)
                .setParameter("member", memberId)
                .getSingleResult();
        return total == null ? 0 : total;
    }

    /** A message from the patient: the last-message fields, and one more unread by the prescriber. */
    public void fromPatient(String senderId, String preview, Instant at) {
        last(senderId, preview, at);
        unreadByPrescriber++;
    }

    /** A message to the patient (a prescriber's, or the service's system message): one more unread by the member. */
    public void toPatient(String senderId, String preview, Instant at) {
        last(senderId, preview, at);
        unreadByMember++;
    }

    /** The member read the thread; the only way {@code unreadByMember} goes down. */
    public void readByMember(Instant at) {
        unreadByMember = 0;
        updatedAt = at;
    }

    /** A prescriber read the thread. */
    public void readByPrescriber(Instant at) {
        unreadByPrescriber = 0;
        updatedAt = at;
    }

    /** The preview of a text: its first 80 characters, never splitting a surrogate pair. */
    public static String textPreview(String text) {
        if (text.length() <= PREVIEW_LENGTH) {
            return text;
        }
        int end = Character.isHighSurrogate(text.charAt(PREVIEW_LENGTH - 1)) ? PREVIEW_LENGTH - 1 : PREVIEW_LENGTH;
        return text.substring(0, end);
    }

    /** The preview of an attachment: its file name behind a paperclip. */
    public static String attachmentPreview(String fileName) {
        return PAPERCLIP + fileName;
    }

    private void last(String senderId, String preview, Instant at) {
        lastMessageAt = at;
        lastMessagePreview = preview;
        lastMessageSenderId = senderId;
        updatedAt = at;
    }
}
