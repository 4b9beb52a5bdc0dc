package com.telemed.messaging.mail;

import static com.telemed.messaging.MessagingFixtures.conversation;
import static com.telemed.messaging.MessagingFixtures.newPartner;
import static com.telemed.messaging.MessagingFixtures.postText;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.telemed.messaging.MessagingNeighbours;
import com.telemed.messaging.MessagingNeighboursResource;
import com.telemed.testkit.infra.EmbeddedMailServer;
import com.telemed.testkit.infra.ReceivedMail;
import com.telemed.testkit.mail.MailReader;
import com.telemed.testkit.quarkus.InfrastructureResource;
import com.telemed.testkit.quarkus.ServiceDatabase;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The prescriber's mail, through the real (embedded) SMTP server: it carries the patient's text,
 * an SMTP outage neither fails nor holds the patient's call and the mail arrives once the server is
 * back, and relays racing on one outbox send each mail once.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(MessagingNeighboursResource.class)
class PrescriberMailTest {

    @Inject
    MessagingNeighbours neighbours;

    @Inject
    MailOutbox outbox;

    @Inject
    MailRelay relay;

    EmbeddedMailServer mail;
    String partnerId;
    String prescriberEmail;
    String conversationId;

    @BeforeEach
    void setUp() {
        neighbours.reset();
        mail = InfrastructureResource.running().embeddedMail();
        partnerId = newPartner();
        String memberId = neighbours.member(partnerId, "Ada", "Lovelace", "ada@example.com");
        prescriberEmail = "grace." + UUID.randomUUID() + "@clinic.example";
        conversationId = conversation(partnerId, memberId, neighbours.prescriber("Dr. Grace Hopper", prescriberEmail));
    }

    @AfterEach
    void serverBack() {
        if (!mail.isRunning()) {
            mail.start();
        }
    }

    @Test
    void thePrescriberIsMailedThePatientsTextVerbatim() {
        String text = "Is it safe with ibuprofen?\nThanks, \u00c5da \uD83D\uDE00";
        postText(partnerId, conversationId, text).then().statusCode(201);

        ReceivedMail received = MailReader.readTo(mail, prescriberEmail, 1, Duration.ofSeconds(30)).get(0);
        assertEquals(List.of(prescriberEmail), received.recipients());
        assertEquals("care-team@telemed.local", received.from());
        assertEquals("New message from Ada Lovelace", received.subject());
        assertEquals("Ada Lovelace sent you a message:\n\n" + text + "\n\nConversation: " + conversationId, received.text());
        await().atMost(Duration.ofSeconds(10)).until(() -> queued() == 0);
    }

    /**
     * Issue #38: a name with a line feed started a header of its own in the Subject (vert.x mail
     * sends an ASCII subject as it is), here a Reply-To that would take the prescriber's answer
     * elsewhere. The API now refuses such names; one that got into a conversation anyway is one
     * line in the header: every control character a space.
     */
    @Test
    void aNameWithLineBreaksStaysOneSubjectLine() {
        String memberId = neighbours.member(partnerId, "Ann\r\nReply-To: x@evil.example\nX-Injected: yes", "Lee", "ann@example.com");
        String to = "reply." + UUID.randomUUID() + "@clinic.example";
        String conversation = conversation(partnerId, memberId, neighbours.prescriber("Dr. Grace Hopper", to));
        postText(partnerId, conversation, "hello").then().statusCode(201);

        ReceivedMail received = MailReader.readTo(mail, to, 1, Duration.ofSeconds(30)).get(0);
        assertEquals("New message from Ann  Reply-To: x@evil.example X-Injected: yes Lee", received.subject());
        assertEquals(List.of(to), received.recipients());
        assertEquals("care-team@telemed.local", received.from());
    }

    @Test
    void withTheServerDownThePatientIsAnsweredAndTheMailArrivesWhenItIsBack() {
        mail.stop();
        postText(partnerId, conversationId, "sent during the outage").then().statusCode(201);
        // Tried and failed at least once, still queued: the call did not wait for it.
        await().atMost(Duration.ofSeconds(30)).until(() -> ServiceDatabase.count(
                "SELECT count(*) FROM mail_outbox WHERE recipient = ? AND attempts > 0", prescriberEmail) == 1);
        assertEquals(0, mail.received().stream().filter(m -> m.recipients().contains(prescriberEmail)).count());

        mail.start();
        // Within a minute: once, in a build running four modules' tests side by side, the mail had not
        // arrived 30 s after the server came back, which is the relay's send timeout: a send left
        // waiting on the way down is given up after it and the mail retried.
        ReceivedMail received = MailReader.readTo(mail, prescriberEmail, 1, Duration.ofSeconds(60)).get(0);
        assertEquals(true, received.text().contains("sent during the outage"));
        await().atMost(Duration.ofSeconds(10)).until(() -> queued() == 0);
    }

    @Test
    void relaysRacingOnTheOutboxSendEachMailOnce() throws Exception {
        Set<String> recipients = IntStream.range(0, 24).mapToObj(index -> "race" + index + "." + UUID.randomUUID() + "@clinic.example")
                .collect(Collectors.toSet());
        QuarkusTransaction.requiringNew().run(() -> recipients.forEach(to -> outbox.queue(to, "race", "body")));
        int relays = 4;
        ExecutorService pool = Executors.newFixedThreadPool(relays);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<Integer>> runs = new ArrayList<>();
            for (int index = 0; index < relays; index++) {
                runs.add(pool.submit(() -> {
                    start.await();
                    int sent = 0;
                    for (int round = 0; round < 10; round++) {
                        sent += relay.sendDue();
                    }
                    return sent;
                }));
            }
            start.countDown();
            for (Future<Integer> run : runs) {
                run.get();
            }
        } finally {
            pool.shutdownNow();
        }
        List<ReceivedMail> received = MailReader.readExactly(mail, m -> recipients.containsAll(m.recipients()), recipients.size(),
                Duration.ofSeconds(30));
        assertEquals(recipients, received.stream().map(m -> m.recipients().get(0)).collect(Collectors.toSet()));
    }

    private long queued() {
        return ServiceDatabase.count("SELECT count(*) FROM mail_outbox WHERE recipient = ?", prescriberEmail);
    }
}
