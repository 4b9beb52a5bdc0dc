package com.telemed.bench.webhook;

import com.telemed.bench.support.GatewayApi;
import com.telemed.bench.support.ProcessCpu;
import com.telemed.bench.support.Results;
import com.telemed.bench.support.Waits;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The measurement, one round at a time: events/s from {@code care.events} to the receiver through
 * webhook-service. Each round on partners of its own (their webhook URLs pointing at the receiver),
 * {@code events} envelopes published straight onto {@code care.events} with a plain Kafka producer
 * (as the outbox relay does), timed from the first publish to the receipt of the last distinct
 * {@code X-Webhook-Id}; also when the last attempt was recorded (the delivery's state persisted), the
 * intake window, the attempts as webhook-service recorded them, and the CPU each process used.
 */
final class DeliveryThroughput {

    /** Cap of one round (and of the ceiling): the run stops by itself. */
    static final Duration ROUND_CAP = Duration.ofSeconds(240);

    record Round(String name, int events, double publishSeconds, double receivedSeconds, double recordedSeconds,
                 long posts, int distinct, double intakeSeconds, String attempts, String cpu) {

        double perSecond() {
            return events / receivedSeconds;
        }

        void print() {
            System.out.printf("%-34s %7.0f events/s   (%d events: published in %.1f s, all received after %.1f s,"
                            + " all recorded after %.1f s; %d POSTs for %d distinct ids)%n",
                    name, perSecond(), events, publishSeconds, receivedSeconds, recordedSeconds, posts, distinct);
            System.out.printf("%-34s intake (first to last delivery row stored) %.1f s = %.0f events/s%n", "",
                    intakeSeconds, events / Math.max(intakeSeconds, 0.001));
            System.out.printf("%-34s attempts: %s%n", "", attempts);
            System.out.printf("%-34s CPU: %s%n", "", cpu);
        }

        /** Kept as {@code <prefix>.perSecond}, {@code .allRecordedSeconds} and {@code .intakePerSecond}. */
        void record(Results results, String prefix, String label) {
            results.record(prefix + ".perSecond", perSecond(), "events/s", label + ", end to end");
            results.record(prefix + ".allRecordedSeconds", recordedSeconds, "s", label + ", until every delivery was recorded");
            results.record(prefix + ".intakePerSecond", events / Math.max(intakeSeconds, 0.001), "events/s",
                    label + ", intake (first to last delivery row stored)");
        }
    }

    private final GatewayApi api;
    private final Receiver receiver;
    private final KafkaProducer<String, String> producer;
    private final Connection db;
    private final ProcessCpu cpu;
    private int rounds;

    DeliveryThroughput(GatewayApi api, Receiver receiver, KafkaProducer<String, String> producer, Connection db, ProcessCpu cpu) {
        this.api = api;
        this.receiver = receiver;
        this.producer = producer;
        this.db = db;
        this.cpu = cpu;
    }

    /** One round on partners of its own, so its rows are told apart by partner. */
    Round round(String name, int partnerCount, int events) throws Exception {
        int round = ++rounds;
        List<String> partners = new ArrayList<>();
        for (int i = 0; i < partnerCount; i++) {
            String partnerId = api.partner("Bench Webhooks " + round + "." + i).path("partner").path("id").asText();
            api.send("PUT", "/ops/v1/partners/" + partnerId + "/webhook",
                    GatewayApi.JSON.writeValueAsString(Map.of("url", receiver.url("/hooks/load/" + i))), 200);
            partners.add(partnerId);
        }
        List<String> envelopes = new ArrayList<>(events);
        List<String> keys = new ArrayList<>(events);
        for (int i = 0; i < events; i++) {
            String requestId = UUID.randomUUID().toString();
            keys.add(requestId);
            envelopes.add("{\"id\":\"" + UUID.randomUUID() + "\",\"type\":\"item.approved\",\"partnerId\":\""
                    + partners.get(i % partnerCount) + "\",\"occurredAt\":\"2026-11-21T09:30:00.000Z\","
                    + "\"subject\":{\"requestId\":\"" + requestId + "\"},\"data\":{\"requestId\":\"" + requestId
                    + "\",\"status\":\"approved\"},\"webhook\":" + Webhooks.itemApproved(requestId) + "}");
        }
        receiver.startRound(events);
        ProcessCpu.Snapshot before = cpu.snapshot();
        long started = System.nanoTime();
        for (int i = 0; i < events; i++) {
            producer.send(new ProducerRecord<>("care.events", keys.get(i), envelopes.get(i)));
        }
        producer.flush();
        long published = System.nanoTime();
        boolean all = Waits.until(ROUND_CAP, () -> receiver.distinct() >= events);
        long received = all ? receiver.reachedAt() : System.nanoTime();
        ProcessCpu.Snapshot after = cpu.snapshot();
        String[] in = partners.toArray(new String[0]);
        boolean recorded = Waits.until(Duration.ofSeconds(60), () -> DeliveryRows.delivered(db, in) >= events);
        long recordedAt = System.nanoTime();
        if (!all || !recorded) {
            System.out.printf("  !! %s: %d of %d distinct ids received, %s recorded delivered within the caps%n", name,
                    receiver.distinct(), events, recorded ? "all" : "not all");
        }
        return new Round(name, events, (published - started) / 1e9, (received - started) / 1e9,
                (recordedAt - started) / 1e9, receiver.posts(), receiver.distinct(), DeliveryRows.intakeSeconds(db, in),
                DeliveryRows.attempts(db, in), cpu.describe(before, after, events));
    }
}
