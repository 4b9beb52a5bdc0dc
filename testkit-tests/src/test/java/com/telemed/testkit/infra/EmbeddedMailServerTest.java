package com.telemed.testkit.infra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.testkit.mail.MailReader;
import io.vertx.core.Vertx;
import io.vertx.ext.mail.LoginOption;
import io.vertx.ext.mail.MailClient;
import io.vertx.ext.mail.MailConfig;
import io.vertx.ext.mail.MailMessage;
import io.vertx.ext.mail.StartTLSOptions;
import jakarta.mail.Message;
import jakarta.mail.Session;
import jakarta.mail.Transport;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeBodyPart;
import jakarta.mail.internet.MimeMessage;
import jakarta.mail.internet.MimeMultipart;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

/**
 * The embedded SMTP server as the platform's mailer and the tests meet it: mail sent over real SMTP
 * (jakarta.mail, the Vert.x mail client quarkus-mailer wraps, and raw SMTP commands) is read back
 * with its recipients, subject and UTF-8 bodies exact; the server stops and starts again on its port
 * with its mailboxes; purge empties them.
 */
class EmbeddedMailServerTest {

    private static final String TEXT = "Grüße, Dr. Ödön Çelik: a new message about “Zoë” — 処方箋\nSecond line.";
    private static final String SUBJECT = "Nouveau message — Zoë Ünal (処方箋)";
    /**
     * How long a send may take before the test gives up: a bound on waiting, not a speed asserted. This
     * module's JVM runs at nice 10 beside the build (docs/testing.md); on a loaded machine a send of the
     * Vert.x client once took more than 10 s.
     */
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private static EmbeddedMailServer server;

    @BeforeAll
    static void start() {
        server = EmbeddedMailServer.start(0);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @BeforeEach
    void emptyMailboxes() {
        server.start();
        server.purge();
    }

    @Test
    void deliversAPlainTextMailIntoEachRecipientsMailboxWithItsUtf8TextExact() throws Exception {
        MimeMessage message = new MimeMessage(session());
        message.setFrom(new InternetAddress("noreply@telemed.test", "Télémed"));
        message.setRecipient(Message.RecipientType.TO, new InternetAddress("dr.ada@clinic.test", "Dr Ada Lovelace"));
        message.setRecipient(Message.RecipientType.CC, new InternetAddress("nurse@clinic.test"));
        message.setSubject(SUBJECT, "UTF-8");
        message.setText(TEXT, "UTF-8");
        Transport.send(message);

        List<ReceivedMail> received = MailReader.readExactly(server, mail -> true, 2, TIMEOUT).stream()
                .sorted(Comparator.comparing(ReceivedMail::deliveredTo)).toList();
        List<String> recipients = List.of("dr.ada@clinic.test", "nurse@clinic.test");
        assertEquals(List.of(
                new ReceivedMail("dr.ada@clinic.test", "noreply@telemed.test", recipients, SUBJECT, TEXT, ""),
                new ReceivedMail("nurse@clinic.test", "noreply@telemed.test", recipients, SUBJECT, TEXT, "")), received);
    }

    @Test
    void readsTheTextAndHtmlOfANestedMultipartAndSkipsTheAttachment() throws Exception {
        MimeBodyPart text = new MimeBodyPart();
        text.setText(TEXT, "UTF-8");
        MimeBodyPart html = new MimeBodyPart();
        html.setContent("<p>Grüße — 処方箋</p>", "text/html; charset=UTF-8");
        html.setHeader("Content-Transfer-Encoding", "base64");
        MimeMultipart alternative = new MimeMultipart("alternative", text, html);
        MimeBodyPart body = new MimeBodyPart();
        body.setContent(alternative);
        MimeBodyPart attachment = new MimeBodyPart();
        attachment.setText("not the body", "UTF-8");
        attachment.setFileName("note.txt");
        attachment.setDisposition(MimeBodyPart.ATTACHMENT);
        MimeMessage message = new MimeMessage(session());
        message.setFrom("noreply@telemed.test");
        message.setRecipients(Message.RecipientType.TO, "dr.ada@clinic.test");
        message.setSubject(SUBJECT, "UTF-8");
        message.setContent(new MimeMultipart("mixed", body, attachment));
        Transport.send(message);

        ReceivedMail mail = MailReader.readTo(server, "dr.ada@clinic.test", 1, TIMEOUT).get(0);
        assertEquals(TEXT, mail.text());
        assertEquals("<p>Grüße — 処方箋</p>", mail.html());
        assertEquals(SUBJECT, mail.subject());
    }

    @Test
    void readsWhatTheVertxMailClientSendsAsQuarkusMailerSendsIt() throws Exception {
        Vertx vertx = Vertx.vertx();
        try {
            MailClient client = MailClient.create(vertx, new MailConfig()
                    .setHostname(server.host()).setPort(server.port())
                    .setStarttls(StartTLSOptions.DISABLED).setLogin(LoginOption.DISABLED));
            client.sendMail(new MailMessage()
                    .setFrom("Télémed <noreply@telemed.test>")
                    .setTo(List.of("dr.ada@clinic.test"))
                    .setSubject(SUBJECT)
                    .setText(TEXT)
                    .setHtml("<p>Grüße — 処方箋</p>"))
                    .toCompletionStage().toCompletableFuture().get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        }

        assertEquals(List.of(new ReceivedMail("dr.ada@clinic.test", "noreply@telemed.test", List.of("dr.ada@clinic.test"),
                        SUBJECT, TEXT, "<p>Grüße — 処方箋</p>")),
                MailReader.readTo(server, "dr.ada@clinic.test", 1, TIMEOUT));
    }

    @Test
    void greetsOnSmtpAndDecodesABodyThatNamesNoCharsetAsUtf8() throws Exception {
        String greeting = sendRaw(server.port(), "noreply@telemed.test", "dr.ada@clinic.test", String.join("\r\n",
                "From: noreply@telemed.test",
                "To: dr.ada@clinic.test",
                "Subject: raw",
                "MIME-Version: 1.0",
                "Content-Type: text/plain",
                "Content-Transfer-Encoding: 8bit",
                "",
                "Grüße — 処方箋"));

        assertTrue(greeting.startsWith("220 "), greeting);
        assertEquals(List.of(new ReceivedMail("dr.ada@clinic.test", "noreply@telemed.test", List.of("dr.ada@clinic.test"),
                "raw", "Grüße — 処方箋", "")), MailReader.readTo(server, "dr.ada@clinic.test", 1, TIMEOUT));
    }

    @Test
    void stopsAsAnOutageAndStartsAgainOnItsPortWithItsMailboxes() throws Exception {
        int port = server.port();
        send("dr.ada@clinic.test", "before");
        MailReader.readTo(server, "dr.ada@clinic.test", 1, TIMEOUT);

        server.stop();
        assertFalse(server.isRunning());
        assertTrue(refusesConnections(port), "the port refuses connections while stopped");
        assertEquals(List.of("before"), server.received().stream().map(ReceivedMail::subject).toList(),
                "readable while stopped");

        server.start();
        assertTrue(server.isRunning());
        assertEquals(port, server.port());
        send("dr.ada@clinic.test", "after");
        assertEquals(List.of("before", "after"), MailReader.readTo(server, "dr.ada@clinic.test", 2, TIMEOUT).stream()
                .map(ReceivedMail::subject).toList());
    }

    @Test
    void purgeEmptiesEveryMailboxAndDeliveryGoesOn() throws Exception {
        send("dr.ada@clinic.test", "one");
        send("nurse@clinic.test", "two");
        MailReader.readExactly(server, mail -> true, 2, TIMEOUT);

        server.purge();
        assertEquals(List.of(), server.received());

        send("dr.ada@clinic.test", "three");
        assertEquals(List.of("three"), MailReader.readExactly(server, mail -> true, 1, TIMEOUT).stream()
                .map(ReceivedMail::subject).toList());
    }

    @Test
    void readExactlyFailsOnAMailTooMany() throws Exception {
        send("dr.ada@clinic.test", "one");
        send("dr.ada@clinic.test", "a duplicate");

        AssertionFailedError failure = assertThrows(AssertionFailedError.class,
                () -> MailReader.readTo(server, "dr.ada@clinic.test", 1, TIMEOUT));
        assertTrue(failure.getMessage().startsWith("mails received: "), failure.getMessage());
        assertEquals(2, server.received().size());
    }

    @Test
    void aTakenPortFailsTheStartNamingIt() {
        IllegalStateException failure = assertThrows(IllegalStateException.class, () -> EmbeddedMailServer.start(server.port()));
        assertEquals("the mail server cannot listen on 127.0.0.1:" + server.port() + " (SMTP): another process holds the port",
                failure.getMessage());
        assertTrue(server.isRunning(), "the server holding the port goes on");
    }

    /**
     * The failed start's server thread ends with an exception of its own, which must stay with it:
     * an Awaitility wait (which catches every thread's uncaught exception by default) of another test
     * class running beside this one once failed with "Can not open server socket for smtp:...".
     * Here the failure happens inside such a wait, which joins the thread before it ends.
     */
    @Test
    void aTakenPortsFailureNeverReachesAnotherThreadsWait() {
        String threadName = "smtp:127.0.0.1:" + server.port();
        Awaitility.await().atMost(TIMEOUT).until(() -> {
            Set<Thread> running = threadsNamed(threadName); // the server holding the port
            assertThrows(IllegalStateException.class, () -> EmbeddedMailServer.start(server.port()));
            for (Thread failed : threadsNamed(threadName)) {
                if (!running.contains(failed)) {
                    failed.join(TIMEOUT.toMillis());
                }
            }
            return true;
        });
        assertTrue(server.isRunning(), "the server holding the port goes on");
    }

    private static Set<Thread> threadsNamed(String name) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.getName().equals(name))
                .collect(Collectors.toSet());
    }

    @Test
    void servesImapWhenAsked() throws Exception {
        try (EmbeddedMailServer withImap = EmbeddedMailServer.startWithImap(0, 0)) {
            int imap = withImap.imapPort().orElseThrow();
            try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), imap)) {
                socket.setSoTimeout(10_000);
                String greeting = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII))
                        .readLine();
                assertTrue(greeting.startsWith("* OK"), greeting);
            }
        }
        assertTrue(server.imapPort().isEmpty(), "tests' servers speak SMTP only");
    }

    private void send(String to, String subject) throws Exception {
        MimeMessage message = new MimeMessage(session());
        message.setFrom("noreply@telemed.test");
        message.setRecipients(Message.RecipientType.TO, to);
        message.setSubject(subject);
        message.setText("body", "UTF-8");
        Transport.send(message);
    }

    private static Session session() {
        Properties properties = new Properties();
        properties.put("mail.smtp.host", server.host());
        properties.put("mail.smtp.port", String.valueOf(server.port()));
        properties.put("mail.smtp.connectiontimeout", "10000");
        properties.put("mail.smtp.timeout", "10000");
        return Session.getInstance(properties);
    }

    /** One mail through a bare SMTP conversation, bytes as given (UTF-8); returns the server's greeting. */
    private static String sendRaw(int port, String from, String to, String data) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(10_000);
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
            OutputStream out = socket.getOutputStream();
            String greeting = in.readLine();
            command(in, out, "HELO test.local", "250");
            command(in, out, "MAIL FROM:<" + from + ">", "250");
            command(in, out, "RCPT TO:<" + to + ">", "250");
            command(in, out, "DATA", "354");
            out.write((data + "\r\n.\r\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
            expect(in, "250");
            command(in, out, "QUIT", "221");
            return greeting;
        }
    }

    private static void command(BufferedReader in, OutputStream out, String command, String expected) throws IOException {
        out.write((command + "\r\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
        expect(in, expected);
    }

    /** One reply, its continuation lines ({@code 250-...}) included. */
    private static void expect(BufferedReader in, String code) throws IOException {
        String line;
        do {
            line = in.readLine();
            if (line == null || !line.startsWith(code)) {
                throw new IOException("expected " + code + ", got " + line);
            }
        } while (line.length() > 3 && line.charAt(3) == '-');
    }

    /**
     * Whether nothing listens on the loopback port: the connection is refused, or it is connected to itself. A connect
     * to a free port of the ephemeral range is, rarely, given that same port as its own local end, and TCP's
     * simultaneous open then accepts it with no listener (seen once in a full build).
     */
    private static boolean refusesConnections(int port) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            return socket.getLocalPort() == port;
        } catch (ConnectException refused) {
            return true;
        }
    }
}
