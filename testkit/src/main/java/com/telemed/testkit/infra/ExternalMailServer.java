package com.telemed.testkit.infra;

/** An SMTP server someone else runs, named by PLATFORM_SMTP_HOST and PLATFORM_SMTP_PORT. */
public record ExternalMailServer(String host, int port) implements MailServer {

    @Override
    public void close() {
        // Not ours to stop.
    }
}
