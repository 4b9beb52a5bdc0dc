package com.telemed.testkit.infra;

/** A running SMTP server the platform sends its mail through (messaging-service's mailer). */
public interface MailServer extends AutoCloseable {

    String host();

    /** The SMTP port: plain SMTP, no TLS, no authentication. */
    int port();

    @Override
    void close();
}
