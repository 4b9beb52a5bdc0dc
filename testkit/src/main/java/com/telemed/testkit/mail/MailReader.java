package com.telemed.testkit.mail;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.telemed.testkit.infra.EmbeddedMailServer;
import com.telemed.testkit.infra.ReceivedMail;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;
import org.awaitility.core.ConditionTimeoutException;

/**
 * Reads what the embedded SMTP server received, as {@code kafka.TopicReader} reads a topic: one
 * server serves a whole test run, so {@link #readExactly} keeps only the mails a test owns (its own
 * recipient, say) and fails unless exactly the expected number arrive. In a {@code @QuarkusTest}
 * the server is {@code InfrastructureResource.running().embeddedMail()}; end to end,
 * {@code RunningPlatform.Handle.mail()}.
 */
public final class MailReader {

    /** After the expected count arrived, reading goes on this long so that a duplicate or an extra mail would show. */
    public static final Duration SETTLE = Duration.ofSeconds(2);
    private static final Duration POLL = Duration.ofMillis(50);

    private MailReader() {
    }

    /** The mails {@code keep} accepts, oldest first; exactly {@code expected} of them. */
    public static List<ReceivedMail> readExactly(EmbeddedMailServer server, Predicate<ReceivedMail> keep, int expected,
                                                 Duration timeout) {
        try {
            await().atMost(timeout).pollInterval(POLL).until(() -> kept(server, keep).size() >= expected);
            await().during(SETTLE).atMost(SETTLE.plusSeconds(1)).pollInterval(POLL)
                    .until(() -> kept(server, keep).size() == expected);
        } catch (ConditionTimeoutException e) {
            // Reported below with what did arrive.
        }
        List<ReceivedMail> mails = kept(server, keep);
        assertEquals(expected, mails.size(), "mails received: " + mails);
        return mails;
    }

    /** {@link #readExactly} for the mails delivered into one mailbox (the address, in any case). */
    public static List<ReceivedMail> readTo(EmbeddedMailServer server, String address, int expected, Duration timeout) {
        return readExactly(server, mail -> mail.deliveredTo().equalsIgnoreCase(address), expected, timeout);
    }

    private static List<ReceivedMail> kept(EmbeddedMailServer server, Predicate<ReceivedMail> keep) {
        return server.received().stream().filter(keep).toList();
    }
}
