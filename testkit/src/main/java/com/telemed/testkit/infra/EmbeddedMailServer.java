package com.telemed.testkit.infra;

import com.icegreen.greenmail.Managers;
import com.icegreen.greenmail.configuration.GreenMailConfiguration;
import com.icegreen.greenmail.server.AbstractServer;
import com.icegreen.greenmail.store.FolderException;
import com.icegreen.greenmail.store.StoredMessage;
import com.icegreen.greenmail.user.GreenMailUser;
import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import jakarta.mail.Address;
import jakarta.mail.BodyPart;
import jakarta.mail.MessagingException;
import jakarta.mail.Part;
import jakarta.mail.internet.ContentType;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import jakarta.mail.internet.MimeMultipart;
import jakarta.mail.internet.MimeUtility;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An SMTP server in this JVM (GreenMail) on loopback: plain SMTP, no TLS, no authentication, every
 * recipient accepted and given a mailbox of its own on first delivery. Tests read what arrived
 * through {@link #received()}; ./stack also serves the mailboxes over IMAP, where any mail client
 * logs in with the recipient's address as login and as password.
 *
 * <p>{@link #stop()} takes the server away as an outage would (its ports refuse connections, the
 * sessions in progress are cut), {@link #start()} brings it back on the same ports with the
 * mailboxes as they were: what arrived before the outage is still there. {@link #purge()} empties
 * every mailbox. Nothing is written to disk: mail lives as long as this object.
 */
public final class EmbeddedMailServer implements MailServer {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedMailServer.class);
    private static final String HOST = "127.0.0.1";
    /** GreenMail's own 2 s is short for a loaded machine starting eight JVMs beside it. */
    private static final long STARTUP_TIMEOUT_MILLIS = 10_000;

    private final int port;
    private final OptionalInt imapPort;
    private final KeepingGreenMail greenMail;
    private boolean running;
    /** For a view of the server another class loader of this JVM runs ({@link SystemLoaded}); else null. */
    private final SystemLoaded.MailControl shared;

    private EmbeddedMailServer(SystemLoaded.MailControl shared) {
        this.port = shared.port();
        this.imapPort = shared.imapPort();
        this.greenMail = null;
        this.shared = shared;
    }

    /** This class loader's view of the JVM's shared server: every call goes to it. */
    static EmbeddedMailServer viewOf(SystemLoaded.MailControl shared) {
        return new EmbeddedMailServer(shared);
    }

    private EmbeddedMailServer(int port, OptionalInt imapPort) {
        this.port = port;
        this.imapPort = imapPort;
        List<ServerSetup> setups = new ArrayList<>();
        setups.add(setup(port, ServerSetup.PROTOCOL_SMTP));
        imapPort.ifPresent(imap -> setups.add(setup(imap, ServerSetup.PROTOCOL_IMAP)));
        this.greenMail = new KeepingGreenMail(setups.toArray(ServerSetup[]::new));
        greenMail.withConfiguration(GreenMailConfiguration.aConfig().withDisabledAuthentication());
        this.shared = null;
    }

    /** SMTP only, on the port (0 picks a free one): what tests use. */
    public static EmbeddedMailServer start(int port) {
        EmbeddedMailServer server = new EmbeddedMailServer(port == 0 ? FreePorts.next() : port, OptionalInt.empty());
        server.start();
        return server;
    }

    /** SMTP and IMAP on the ports (0 picks a free one): what ./stack runs, so a person can read the mail. */
    public static EmbeddedMailServer startWithImap(int port, int imapPort) {
        EmbeddedMailServer server = new EmbeddedMailServer(port == 0 ? FreePorts.next() : port,
                OptionalInt.of(imapPort == 0 ? FreePorts.next() : imapPort));
        server.start();
        return server;
    }

    /**
     * Starts the server, or starts it again after {@link #stop()} on the same ports with the same
     * mailboxes; returns once its ports accept connections. Does nothing when it is running.
     */
    public synchronized void start() {
        if (shared != null) {
            shared.start();
            return;
        }
        if (running) {
            return;
        }
        try {
            greenMail.start();
        } catch (IllegalStateException e) {
            greenMail.stopKeepingMail();
            throw new IllegalStateException(startFailure(), e);
        }
        running = true;
        LOG.info("Mail server listening on {}", describePorts());
    }

    /**
     * Stops the server as an outage would: its ports refuse connections from the moment this returns
     * and sessions in progress are cut. The mailboxes stay for {@link #start()}. Does nothing when
     * it is stopped.
     */
    public synchronized void stop() {
        if (shared != null) {
            shared.stop();
            return;
        }
        if (!running) {
            return;
        }
        greenMail.stopKeepingMail();
        running = false;
        LOG.info("Mail server stopped ({})", describePorts());
    }

    public synchronized boolean isRunning() {
        return shared != null ? shared.isRunning() : running;
    }

    @Override
    public String host() {
        return HOST;
    }

    @Override
    public int port() {
        return port;
    }

    /** The IMAP port, when this server serves IMAP ({@link #startWithImap}). */
    public OptionalInt imapPort() {
        return imapPort;
    }

    /**
     * Every mail delivered so far, one per mailbox it went into, oldest first. Readable while the
     * server is stopped too.
     */
    public List<ReceivedMail> received() {
        if (shared != null) {
            return shared.received();
        }
        List<Delivery> deliveries = new ArrayList<>();
        try {
            for (GreenMailUser user : greenMail.getUserManager().listUser()) {
                for (StoredMessage message : greenMail.getManagers().getImapHostManager().getInbox(user).getMessages()) {
                    deliveries.add(new Delivery(user.getEmail(), message));
                }
            }
        } catch (FolderException e) {
            throw new IllegalStateException("cannot read the mailboxes", e);
        }
        deliveries.sort(Comparator.comparing(delivery -> delivery.message().getReceivedDate()));
        return deliveries.stream().map(delivery -> view(delivery.mailbox(), delivery.message().getMimeMessage())).toList();
    }

    /** Empties every mailbox (the mailboxes themselves stay), as between tests. */
    public void purge() {
        if (shared != null) {
            shared.purge();
            return;
        }
        try {
            greenMail.purgeEmailFromAllMailboxes();
        } catch (FolderException e) {
            throw new IllegalStateException("cannot purge the mailboxes", e);
        }
    }

    @Override
    public void close() {
        if (shared != null) {
            return; // a view: the server is the JVM's, and stops when it exits
        }
        stop();
    }

    /** One line naming the cause: a port another process holds, or else a start that took too long. */
    private String startFailure() {
        List<String> taken = new ArrayList<>();
        if (!bindable(port)) {
            taken.add(HOST + ":" + port + " (SMTP)");
        }
        imapPort.ifPresent(imap -> {
            if (!bindable(imap)) {
                taken.add(HOST + ":" + imap + " (IMAP)");
            }
        });
        if (taken.isEmpty()) {
            return "the mail server did not start on " + describePorts() + " within " + STARTUP_TIMEOUT_MILLIS / 1000 + " s";
        }
        return "the mail server cannot listen on " + String.join(" and ", taken) + ": another process holds the port";
    }

    private static boolean bindable(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(HOST, port));
            return true;
        } catch (IOException taken) {
            return false;
        }
    }

    private String describePorts() {
        return HOST + ":" + port + " (SMTP)" + (imapPort.isPresent() ? " and " + HOST + ":" + imapPort.getAsInt() + " (IMAP)" : "");
    }

    private static ServerSetup setup(int port, String protocol) {
        ServerSetup setup = new ServerSetup(port, HOST, protocol);
        setup.setServerStartupTimeout(STARTUP_TIMEOUT_MILLIS);
        return setup;
    }

    private record Delivery(String mailbox, StoredMessage message) {
    }

    static ReceivedMail view(String mailbox, MimeMessage message) {
        try {
            Address[] from = message.getFrom();
            List<String> recipients = new ArrayList<>();
            addAddresses(recipients, message.getRecipients(MimeMessage.RecipientType.TO));
            addAddresses(recipients, message.getRecipients(MimeMessage.RecipientType.CC));
            Bodies bodies = new Bodies();
            bodies.collect(message);
            return new ReceivedMail(mailbox,
                    from == null || from.length == 0 ? "" : bare(from[0]),
                    recipients,
                    message.getSubject() == null ? "" : message.getSubject(),
                    bodies.text == null ? "" : bodies.text,
                    bodies.html == null ? "" : bodies.html);
        } catch (MessagingException | IOException e) {
            throw new IllegalStateException("cannot read a received mail", e);
        }
    }

    private static void addAddresses(List<String> into, Address[] addresses) {
        if (addresses != null) {
            for (Address address : addresses) {
                into.add(bare(address));
            }
        }
    }

    private static String bare(Address address) {
        return address instanceof InternetAddress internet ? internet.getAddress() : address.toString();
    }

    /** The first text and the first HTML body of a message, searched through nested multiparts. */
    private static final class Bodies {
        private String text;
        private String html;

        void collect(Part part) throws MessagingException, IOException {
            if (part.isMimeType("multipart/*")) {
                // Parsed from the part's bytes: no content handler lookup (which depends on the thread's class loader).
                MimeMultipart multipart = new MimeMultipart(part.getDataHandler().getDataSource());
                for (int i = 0; i < multipart.getCount(); i++) {
                    BodyPart child = multipart.getBodyPart(i);
                    collect(child);
                }
                return;
            }
            if (Part.ATTACHMENT.equalsIgnoreCase(part.getDisposition())) {
                return;
            }
            if (text == null && part.isMimeType("text/plain")) {
                text = decode(part);
            } else if (html == null && part.isMimeType("text/html")) {
                html = decode(part);
            }
        }

        private static String decode(Part part) throws MessagingException, IOException {
            String declared = new ContentType(part.getContentType()).getParameter("charset");
            Charset charset = declared == null ? StandardCharsets.UTF_8 : Charset.forName(MimeUtility.javaCharset(declared));
            try (InputStream body = part.getInputStream()) {
                return new String(body.readAllBytes(), charset).replace("\r\n", "\n");
            }
        }
    }

    /**
     * GreenMail whose servers can stop without losing the mail: {@link GreenMail#stop()} also
     * replaces its store (every user and mailbox), so an outage would erase what arrived before it.
     */
    private static final class KeepingGreenMail extends GreenMail {

        KeepingGreenMail(ServerSetup[] setups) {
            super(setups);
        }

        /**
         * GreenMail's servers, each thread with a handler of its own: a server that cannot bind its
         * port ends its thread with an exception that {@link EmbeddedMailServer#start()} reports
         * already, and left to the JVM's default handler it would reach whatever holds that handler
         * at the moment: Awaitility does during every wait, and failed another test class's wait
         * running beside it with this server's "Can not open server socket".
         */
        @Override
        protected Map<String, AbstractServer> createServices(ServerSetup[] setups, Managers managers) {
            Map<String, AbstractServer> created = super.createServices(setups, managers);
            for (AbstractServer server : created.values()) {
                server.setUncaughtExceptionHandler((thread, failure) ->
                        LOG.debug("Mail server thread {} ended: {}", thread.getName(), failure.getMessage()));
            }
            return created;
        }

        /** What {@link GreenMail#stop()} does to the servers, the store kept for the next {@link #start()}. */
        synchronized void stopKeepingMail() {
            for (AbstractServer server : services.values()) {
                server.stopService();
            }
            services.clear();
        }
    }
}
