package com.telemed.messaging.mail;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** {@code messaging.mail.*}: how the mail outbox is sent. The SMTP server is {@code quarkus.mailer.*} ({@code SMTP_*}). */
@ConfigMapping(prefix = "messaging.mail")
public interface MailConfig {

    /** How often each replica looks for due mails (a scheduler expression such as {@code 1s}). */
    @WithDefault("1s")
    String pollInterval();

    /** Mails claimed at once; they are sent one by one in the claiming transaction. */
    @WithDefault("5")
    int batchSize();

    /** How long one mail may take to be accepted before its attempt counts as failed (the mailer has no timeout of its own). */
    @WithDefault("30s")
    Duration sendTimeout();

    /** The wait after a first failed attempt; it doubles with every failure, up to {@link #maxRetryWait()}. */
    @WithDefault("1s")
    Duration firstRetryWait();

    /** The longest wait between two attempts: a mail is retried for as long as it takes, never dropped. */
    @WithDefault("60s")
    Duration maxRetryWait();
}
