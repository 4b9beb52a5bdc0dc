package com.telemed.messaging.mail;

import com.telemed.common.json.Timestamps;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

/**
 * Queues a mail in the caller's transaction: it exists exactly when the change it announces was
 * committed, and {@link MailRelay} sends it afterwards. A slow or absent SMTP server therefore never
 * slows or fails the call that queued it, and a mail is retried until the server takes it.
 */
@ApplicationScoped
public class MailOutbox {

    @Transactional(Transactional.TxType.MANDATORY)
    public void queue(String recipient, String subject, String body) {
        QueuedMail mail = new QueuedMail();
        mail.recipient = recipient;
        mail.subject = subject;
        mail.body = body;
        mail.attempts = 0;
        mail.createdAt = Timestamps.now();
        mail.nextAttemptAt = mail.createdAt;
        mail.persist();
    }
}
