package com.telemed.webhook.intake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.testkit.quarkus.InfrastructureResource;
import com.telemed.testkit.quarkus.ServiceDatabase;
import com.telemed.webhook.support.Events;
import com.telemed.webhook.support.Hmac;
import com.telemed.webhook.support.Partners;
import com.telemed.webhook.support.Receiver;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The intake's one statement (issue 44: events, counters, settings, deliveries and dropped events in one round trip
 * instead of five): a batch mixing a partner with a URL, one without and an envelope seen before stores exactly
 * what the five statements stored, and the leased deliveries go out at once.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
class IntakeStatementTest {

    @Inject
    Intake intake;

    private static Envelopes.Webhook webhook(String partnerId, String event, String body) {
        return new Envelopes.Webhook(Events.newId(), partnerId, event, body);
    }

    @Test
    void aMixedBatchStoresEventsInBatchOrderDeliveriesForTheUrlAndDroppedEventsForTheRest() throws Exception {
        try (Receiver receiver = Receiver.answering(200)) {
            String withUrl = Partners.newPartner();
            String withoutUrl = Partners.newPartner();
            String secret = Partners.setUrl(withUrl, receiver.url());
            Envelopes.Webhook first = webhook(withUrl, "item.approved", "{\"n\":1,\"text\":\"é\"}");
            Envelopes.Webhook dropped = webhook(withoutUrl, "item.denied", "{\"n\":2}");
            Envelopes.Webhook second = webhook(withUrl, "item.denied", "{\"n\":3}");
            Envelopes.Webhook third = webhook(withUrl, "item.approved", "{\"n\":4}");

            Intake.Result result = intake.record(List.of(first, dropped, second), 2);

            assertEquals(2, result.fresh().size(), "both deliveries leased and handed off");
            assertEquals(0, result.unleased());
            assertEquals(1, result.dropped());
            assertEquals(2, result.skipped());
            assertEquals(List.of(first.eventId(), dropped.eventId(), second.eventId()), List.copyOf(result.ids().keySet()));
            assertEquals(List.of(result.ids().get(first.eventId()).toString(), result.ids().get(second.eventId()).toString()),
                    result.fresh().stream().map(job -> job.id().toString()).toList(), "jobs in batch order");

            // The envelope seen before inserts nothing and leaves its number (3) unused: the new one takes 4 (README, Events).
            Intake.Result again = intake.record(List.of(first, third), 0);
            assertEquals(List.of(third.eventId()), List.copyOf(again.ids().keySet()));
            assertEquals(1, again.fresh().size());
            assertEquals(0, again.dropped());

            List<Map<String, Object>> events = ServiceDatabase.rows(
                    "SELECT event_id, seq, type, body FROM events WHERE partner_id = ? ORDER BY seq", withUrl);
            assertEquals(List.of(first.eventId(), second.eventId(), third.eventId()),
                    events.stream().map(row -> row.get("event_id")).toList());
            assertEquals(List.of(1L, 2L, 4L), events.stream().map(row -> ((Number) row.get("seq")).longValue()).toList());
            assertEquals("{\"n\":1,\"text\":\"é\"}", events.get(0).get("body"));
            assertEquals(List.of(1L), ServiceDatabase.rows("SELECT seq FROM events WHERE partner_id = ?", withoutUrl).stream()
                    .map(row -> ((Number) row.get("seq")).longValue()).toList());
            assertEquals(4L, ServiceDatabase.count("SELECT last_seq FROM partner_event_counters WHERE partner_id = ?", withUrl));

            Map<String, Object> delivery = ServiceDatabase.rows("SELECT id::text AS id, event, body FROM deliveries WHERE event_id = ?",
                    first.eventId()).get(0);
            assertEquals(result.ids().get(first.eventId()).toString(), delivery.get("id"));
            assertEquals("item.approved", delivery.get("event"));
            assertEquals("{\"n\":1,\"text\":\"é\"}", delivery.get("body"));
            assertEquals(0L, ServiceDatabase.count("SELECT count(*) FROM deliveries WHERE partner_id = ?", withoutUrl));
            assertEquals(List.of(dropped.eventId()),
                    ServiceDatabase.texts("SELECT event_id FROM dropped_events WHERE partner_id = ?", withoutUrl));
            assertEquals(1L, ServiceDatabase.count("SELECT count(*) FROM dropped_events WHERE event_id = ? AND event = 'item.denied'",
                    dropped.eventId()));

            assertTrue(receiver.await(3, 10_000), "the three deliveries went out at once");
            assertEquals(Map.of(result.ids().get(first.eventId()).toString(), "{\"n\":1,\"text\":\"é\"}",
                            result.ids().get(second.eventId()).toString(), "{\"n\":3}",
                            again.ids().get(third.eventId()).toString(), "{\"n\":4}"),
                    receiver.received().stream().collect(Collectors.toMap(r -> r.header("X-Webhook-Id"), Receiver.Received::bodyText)));
            // Signed over the body's UTF-8 bytes as sent (the job encodes the body once, for the HMAC and the POST).
            for (Receiver.Received post : receiver.received()) {
                assertEquals(Hmac.expectedSignature(secret, post.header("X-Webhook-Timestamp"), post.body()),
                        post.header("X-Webhook-Signature"));
            }
        }
    }
}
