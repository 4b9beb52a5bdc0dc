package com.telemed.bench.messaging;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;

/**
 * Whether messaging-service was sending its prescriber mails during the run: every patient text
 * queues one mail in {@code mail_outbox} with the message, and the relay deletes it once the SMTP
 * server took it, so queued = patient texts, sent = queued - rows left. Also the SMTP server the
 * service was given ({@code SMTP_HOST}/{@code SMTP_PORT} in its environment, else the defaults of
 * its application.properties) and whether anything listened there.
 */
record MailState(long queued, long waiting, long attempted, long maxAttempts, String smtp, boolean listening) {

    static final String DEFAULT_HOST = "127.0.0.1";
    static final String DEFAULT_PORT = "12525";

    long sent() {
        return queued - waiting;
    }

    String line() {
        return String.format("mails to the prescriber: %d queued (one per patient text), %d sent, %d still waiting"
                        + " (%d with a failed attempt, at most %d attempts); SMTP %s: %s", queued, sent(), waiting, attempted,
                maxAttempts, smtp, listening ? "something listens there" : "nothing listens there (every send fails)");
    }

    static MailState read(Connection messaging, long servicePid) throws Exception {
        long queued;
        long waiting;
        long attempted;
        long maxAttempts;
        try (Statement st = messaging.createStatement()) {
            try (ResultSet rs = st.executeQuery("SELECT count(*) FROM messages WHERE sender_role = 'patient' AND type = 'text'")) {
                rs.next();
                queued = rs.getLong(1);
            }
            try (ResultSet rs = st.executeQuery("SELECT count(*), count(*) FILTER (WHERE attempts > 0), coalesce(max(attempts), 0)"
                    + " FROM mail_outbox")) {
                rs.next();
                waiting = rs.getLong(1);
                attempted = rs.getLong(2);
                maxAttempts = rs.getLong(3);
            }
        }
        Map<String, String> environment = environment(servicePid);
        String host = environment.getOrDefault("SMTP_HOST", DEFAULT_HOST);
        String port = environment.getOrDefault("SMTP_PORT", DEFAULT_PORT);
        return new MailState(queued, waiting, attempted, maxAttempts, host + ":" + port, listens(host, Integer.parseInt(port)));
    }

    /** The process's environment from /proc (empty when unreadable). */
    private static Map<String, String> environment(long pid) {
        Map<String, String> environment = new HashMap<>();
        try {
            for (String entry : new String(Files.readAllBytes(Path.of("/proc/" + pid + "/environ")), StandardCharsets.UTF_8).split("\0")) {
                int equals = entry.indexOf('=');
                if (equals > 0) {
                    environment.put(entry.substring(0, equals), entry.substring(equals + 1));
                }
            }
        } catch (IOException e) {
            // not Linux, or not readable: the defaults
        }
        return environment;
    }

    private static boolean listens(String host, int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), 1000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
