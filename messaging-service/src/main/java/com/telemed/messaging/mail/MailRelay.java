package com.telemed.messaging.mail;

import com.telemed.common.error.FailureLog;
import com.telemed.common.metrics.JobMetrics;
import io.quarkus.mailer.Mail;
import io.quarkus.mailer.reactive.ReactiveMailer;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Sends the mail outbox. Every replica polls ({@code messaging.mail.poll-interval}); each claims
 * due rows with {@code SKIP LOCKED}, sends them one by one and deletes each once the SMTP server
 * accepted it, all in the claiming transaction. A failure reschedules that mail (doubling waits,
 * {@link MailConfig}) and ends the batch: the server is likely away, and the rest wait for the next
 * poll. A replica that dies mid-batch rolls its claim back, so a mail can be sent twice, never lost.
 * An outage is logged when it starts, once a minute while it lasts and when it ends ({@link FailureLog}),
 * with exception classes only: no recipient, subject or body.
 */
@ApplicationScoped
public class MailRelay {

    private static final Logger LOG = Logger.getLogger(MailRelay.class);
    private static final String SMTP = "SMTP server";
    /**
     * Long enough for a batch: a failure (a send timeout included) ends it, so it holds at most one
     * {@code send-timeout} beside the sends that succeeded.
     */
    private static final int BATCH_TIMEOUT_SECONDS = 120;

    private final ReactiveMailer mailer;
    private final MailConfig config;
    private final FailureLog failures = new FailureLog(LOG, "Mail relay");
    /** A poll that ends with the SMTP server failing (or throws) counts as a failed run. */
    private final JobMetrics job = JobMetrics.of("mail-relay");

    public MailRelay(ReactiveMailer mailer, MailConfig config) {
        this.mailer = mailer;
        this.config = config;
    }

    // Not while the application stops: the datasource and Hibernate close under a running poll.
    @Scheduled(every = "${messaging.mail.poll-interval:1s}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    void poll() {
        boolean failed = true;
        try {
            while (sendDue() == config.batchSize()) {
                // a full batch: more may be due
            }
            failed = failures.failing();
        } finally {
            job.ran(failed);
        }
    }

    /** Sends one batch of due mails; returns how many were claimed. */
    public int sendDue() {
        return QuarkusTransaction.requiringNew().timeout(BATCH_TIMEOUT_SECONDS).call(() -> {
            List<QueuedMail> due = QueuedMail.claimDue(config.batchSize());
            for (QueuedMail mail : due) {
                try {
                    mailer.send(Mail.withText(mail.recipient, mail.subject, mail.body)).await().atMost(config.sendTimeout());
                    mail.delete();
                    failures.recovered(SMTP);
                } catch (RuntimeException e) {
                    mail.failed(Instant.now(), config.firstRetryWait(), config.maxRetryWait());
                    failures.failed(SMTP, "Sending a queued mail failed (retried later)", e);
                    return 0;
                }
            }
            return due.size();
        });
    }
}
