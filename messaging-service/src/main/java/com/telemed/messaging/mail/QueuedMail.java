package com.telemed.messaging.mail;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * A mail waiting to be sent (table {@code mail_outbox}). Its body quotes the patient: never log it,
 * nor the recipient.
 */
@Entity
@Table(name = "mail_outbox")
public class QueuedMail extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    @Column(name = "id", nullable = false, updatable = false)
    public Long id;

    @Column(name = "recipient", nullable = false, updatable = false)
    public String recipient;

    @Column(name = "subject", nullable = false, updatable = false)
    public String subject;

    @Column(name = "body", nullable = false, updatable = false)
    public String body;

    @Column(name = "attempts", nullable = false)
    public int attempts;

    @Column(name = "next_attempt_at", nullable = false)
    public Instant nextAttemptAt;

    @Column(name = "created_at", nullable = false, updatable = false)
    public Instant createdAt;

    /**
     * Claims up to {@code limit} due mails until the caller's transaction ends. {@code FOR UPDATE
     * SKIP LOCKED} (native: JPQL cannot say it): every replica's relay claims different rows, so a
     * mail is sent by one of them.
     */
    @SuppressWarnings("unchecked")
    static List<QueuedMail> claimDue(int limit) {
        return getEntityManager().createNativeQuery("SELECT * FROM mail_outbox WHERE next_attempt_at <= now()"
                        + " ORDER BY next_attempt_at, id LIMIT :limit FOR UPDATE SKIP LOCKED", QueuedMail.class)
                .setParameter("limit", limit)
                .getResultList();
    }

    /** A failed attempt: the next one after {@code first} doubled per earlier failure, at most {@code max}. */
    void failed(Instant now, Duration first, Duration max) {
        attempts++;
        Duration wait = first;
        for (int i = 1; i < attempts && wait.compareTo(max) < 0; i++) {
            wait = wait.multipliedBy(2);
        }
        nextAttemptAt = now.plus(wait.compareTo(max) > 0 ? max : wait);
    }
}
