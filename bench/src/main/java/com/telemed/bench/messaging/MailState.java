package com.telemed.bench.messaging;

import com.telemed.bench.support.Waits;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * Whether messaging-service was sending its prescriber mails during the run: every patient text
 * queues one mail in {@code mail_outbox} with the message, and the relay deletes it once the SMTP
 * server took it, so queued = patient texts, sent = queued - rows left. Also the SMTP server the
 * service was given ({@code SMTP_HOST}/{@code SMTP_PORT} in its environment, else the defaults of
 * its application.properties) and whether anything listened there.
 */
record MailState(long queued, long waiting, long attempted, long maxAttempts, Smtp smtp) {

    static final String DEFAULT_HOST = "127.0.0.1";
    static final String DEFAULT_PORT = "12525";

    /** The SMTP server messaging-service sends to, and whether anything listens there. */
    record Smtp(String address, boolean listening) {
        String describe() {
            return "SMTP " + address + ": " + (listening ? "something listens there" : "nothing listens there (every send fails)");
        }
    }

    long sent() {
        return queued - waiting;
    }

    String line() {
        return String.format("mails to the prescriber: %d queued (one per patient text), %d sent, %d still waiting"
                        + " (%d with a failed attempt, at most %d attempts); %s", queued, sent(), waiting, attempted,
                maxAttempts, smtp.describe());
    }

    static MailState read(Connection messaging, Smtp smtp) throws SQLException {
        long queued;
        try (Statement st = messaging.createStatement();
             ResultSet rs = st.executeQuery("SELECT count(*) FROM messages WHERE sender_role = 'patient' AND type = 'text'")) {
            rs.next();
            queued = rs.getLong(1);
        }
        try (Statement st = messaging.createStatement();
             ResultSet rs = st.executeQuery("SELECT count(*), count(*) FILTER (WHERE attempts > 0), coalesce(max(attempts), 0)"
                     + " FROM mail_outbox")) {
            rs.next();
            return new MailState(queued, rs.getLong(1), rs.getLong(2), rs.getLong(3), smtp);
        }
    }

    /** Mails not yet sent. */
    static long waiting(Connection messaging) throws SQLException {
        try (Statement st = messaging.createStatement(); ResultSet rs = st.executeQuery("SELECT count(*) FROM mail_outbox")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /**
     * When an SMTP server listens, waits (at most {@code cap}) for the relay to send what the posts
     * queued, so that sending does not share the CPU with the next measurement; prints how long it
     * took. Without one, the mails stay queued: says so.
     */
    static void drain(Connection messaging, Smtp smtp, Duration cap) throws Exception {
        long waiting = waiting(messaging);
        if (!smtp.listening()) {
            System.out.printf("mail: %,d mails queued by the posts stay queued: %s%n", waiting, smtp.describe());
            return;
        }
        long began = System.nanoTime();
        boolean drained = Waits.until(cap, Duration.ofMillis(500), () -> {
            try {
                return waiting(messaging) == 0;
            } catch (SQLException e) {
                throw new IllegalStateException("reading mail_outbox failed", e);
            }
        });
        double seconds = (System.nanoTime() - began) / 1e9;
        long left = waiting(messaging);
        System.out.printf("mail: %,d mails queued by the posts, %s in %.0f s (%.0f mails/s) to %s%n", waiting,
                drained ? "all sent" : String.format("%,d still waiting", left), seconds, (waiting - left) / seconds, smtp.address());
    }

    static Smtp smtp(long servicePid) {
        Map<String, String> environment = environment(servicePid);
        String host = environment.getOrDefault("SMTP_HOST", DEFAULT_HOST);
        String port = environment.getOrDefault("SMTP_PORT", DEFAULT_PORT);
        return new Smtp(host + ":" + port, listens(host, Integer.parseInt(port)));
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
