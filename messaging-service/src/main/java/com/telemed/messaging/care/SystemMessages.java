package com.telemed.messaging.care;

import com.telemed.messaging.conversation.Conversation;
import com.telemed.messaging.message.MessageService;
import io.quarkus.hibernate.orm.panache.Panache;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.util.Optional;

/**
 * Turns a decision on {@code care.events} into a system message in the conversation between that
 * member and that prescriber, only if it existed when the decision was made (the envelope's
 * {@code occurredAt}, requests-service's clock, against the conversation's {@code createdAt}), with
 * {@code message.system}. The event's id is
 * recorded in {@code consumed_events} in the same transaction: a redelivered event finds it and
 * posts nothing.
 */
@ApplicationScoped
public class SystemMessages {

    private final MessageService messages;

    public SystemMessages(MessageService messages) {
        this.messages = messages;
    }

    /** Returns whether a system message was posted. */
    @Transactional
    public boolean apply(CareEvent event) {
        Optional<String> text = SystemNotice.textFor(event);
        if (text.isEmpty() || event.id() == null || event.partnerId() == null || event.subject() == null
                || event.subject().memberId() == null || event.subject().prescriberId() == null) {
            return false;
        }
        if (!firstDelivery(event)) {
            return false;
        }
        // "Only if that conversation already exists" when the prescriber decided: one created after
        // the decision (the event consumed late) gets no message about it.
        Optional<Conversation> conversation = Conversation.lockPair(event.partnerId(), event.subject().memberId(),
                event.subject().prescriberId()).filter(found -> event.occurredAt() == null || !found.createdAt.isAfter(event.occurredAt()));
        conversation.ifPresent(found -> messages.postSystem(found, text.get()));
        return conversation.isPresent();
    }

    /**
     * Records the event id; false when it was already recorded (native: {@code ON CONFLICT DO
     * NOTHING} arbitrates two replicas consuming the same redelivered event without an error).
     */
    private static boolean firstDelivery(CareEvent event) {
        return Panache.getEntityManager()
                .createNativeQuery("INSERT INTO consumed_events (event_id) VALUES (:id) ON CONFLICT DO NOTHING")
                .setParameter("id", event.id())
                .executeUpdate() == 1;
    }
}
