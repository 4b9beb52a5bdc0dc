package com.telemed.bench.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.bench.support.GatewayApi;
import com.telemed.bench.support.Machine;
import com.telemed.bench.support.Percentiles;
import com.telemed.bench.support.Results;
import com.telemed.bench.support.Waits;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * The measurement of latency, the real path at a modest rate: members and requests created through
 * the gateway, each claimed, then approved one after another through the operator API (the first
 * {@link #WARM_UP_APPROVALS} not counted); from the approving call's response to the receipt of its
 * {@code item.approved} webhook, split at the envelope's Kafka timestamp (requests-service's commit
 * and outbox relay, then webhook-service) and at the delivery row's {@code created_at}.
 */
final class DeliveryLatency {

    private static final String DRUG_ID = "bench-webhook-sildenafil";
    /** Approvals made before the measured ones: the first calls through a cold path are not the figure. */
    private static final int WARM_UP_APPROVALS = 50;

    private final GatewayApi api;
    private final Receiver receiver;
    private final Connection db;
    private final String bootstrap;
    private final int approvals;
    private final long pacingMs;
    double p99Ms = Double.NaN;

    DeliveryLatency(GatewayApi api, Receiver receiver, Connection db, String bootstrap, int approvals, long pacingMs) {
        this.api = api;
        this.receiver = receiver;
        this.db = db;
        this.bootstrap = bootstrap;
        this.approvals = approvals;
        this.pacingMs = pacingMs;
    }

    record Prepared(String requestId, String itemId) {
    }

    /** Kept as {@code latency.*}; the headline: approve response to item.approved received, p99 (the aim, issue 44: under 10 ms). */
    DeliveryLatency run(Results results) throws Exception {
        JsonNode partner = api.partner("Bench Webhooks Latency");
        String partnerId = partner.path("partner").path("id").asText();
        String apiKey = partner.path("apiKey").asText();
        receiver.latencySecret = api.send("PUT", "/ops/v1/partners/" + partnerId + "/webhook",
                GatewayApi.JSON.writeValueAsString(Map.of("url", receiver.url("/hooks/latency"))), 200).path("secret").asText();
        api.send("PUT", "/ops/v1/drugs/" + DRUG_ID, """
                {"name": "Sildenafil (bench)", "classification": "non-controlled",
                 "skus": [{"label": "50 mg", "active": true}], "pharmacy": {"id": "sandbox", "method": "none"}}""", 200);
        String prescriberId = api.send("POST", "/ops/v1/prescribers", GatewayApi.JSON.writeValueAsString(Map.of("name", "Dr Bench",
                "email", "bench." + UUID.randomUUID() + "@clinic.example")), 201).path("prescriber").path("id").asText();

        long preparing = System.nanoTime();
        List<Prepared> all = prepare(apiKey, prescriberId, approvals + WARM_UP_APPROVALS);
        List<Prepared> warmUp = all.subList(0, WARM_UP_APPROVALS);
        List<Prepared> prepared = all.subList(WARM_UP_APPROVALS, all.size());
        System.out.printf("%nLatency: %d requests created through the gateway (member inline, one item) and claimed in %.0f s;"
                        + " approving them one after another, one every %d ms at most, the first %d not counted (warm-up);"
                        + " %s%n", all.size(), (System.nanoTime() - preparing) / 1e9, pacingMs, WARM_UP_APPROVALS, Machine.loadAverage());

        try (KafkaTap tap = KafkaTap.start(bootstrap)) {
            Map<String, long[]> responses = new LinkedHashMap<>(); // requestId -> {nanos, millis}
            Histogram calls = new Histogram(60_000_000L, 3);
            String body = GatewayApi.JSON.writeValueAsString(Map.of("prescriberId", prescriberId, "prescription", Map.of(
                    "quantity", 8, "daysSupply", 30, "directions", "One before activity", "refills", 3,
                    "dispenseAsWritten", false)));
            for (Prepared p : warmUp) {
                api.send("POST", "/ops/v1/requests/" + p.requestId() + "/items/" + p.itemId() + "/approve", body, 200);
                Thread.sleep(pacingMs);
            }
            Thread.sleep(1000);
            for (Prepared p : prepared) {
                long start = System.nanoTime();
                api.send("POST", "/ops/v1/requests/" + p.requestId() + "/items/" + p.itemId() + "/approve", body, 200);
                long answered = System.nanoTime();
                responses.put(p.requestId(), new long[] {answered, System.currentTimeMillis()});
                calls.recordValue(Math.max(1, (answered - start) / 1000));
                long rest = pacingMs - (System.nanoTime() - start) / 1_000_000;
                if (rest > 0) {
                    Thread.sleep(rest);
                }
            }
            Waits.until(Duration.ofSeconds(30), () -> receiver.approved.keySet().containsAll(responses.keySet()));
            Thread.sleep(500); // the tap reads the last envelopes too
            report(results, responses, calls, tap, intakeTimes(partnerId));
        }
        System.out.printf("attempts to the latency partner (warm-up included): %s; %d POSTs for %d distinct ids%n",
                DeliveryRows.attempts(db, new String[] {partnerId}), receiver.latencyPosts.get(), receiver.latencyIds.size());
        // The broker hop alone, right after, at the same pace: the floor under the plain consumer's figure.
        KafkaProbe.run(results, bootstrap, approvals, pacingMs);
        return this;
    }

    private List<Prepared> prepare(String apiKey, String prescriberId, int count) throws Exception {
        List<Prepared> prepared = Collections.synchronizedList(new ArrayList<>());
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> work = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                int n = i;
                work.add(pool.submit(() -> {
                    String requestId = api.as(apiKey, "POST", "/v1/requests", """
                            {"caseNotes": "bench", "items": [{"drugId": "%s", "dosage": "50 mg"}],
                             "member": {"firstName": "Mary", "lastName": "Bench", "email": "mary.%d.%s@example.com",
                                        "dateOfBirth": "1980-04-09", "state": "VA",
                                        "address": {"street1": "1 Main St", "city": "Hampton", "state": "VA", "zipCode": "23665"}}}"""
                            .formatted(DRUG_ID, n, UUID.randomUUID()), 201).path("requestId").asText();
                    String itemId = api.as(apiKey, "GET", "/v1/requests/" + requestId, null, 200)
                            .path("lineItems").path(0).path("itemId").asText();
                    api.send("POST", "/ops/v1/requests/" + requestId + "/claim",
                            GatewayApi.JSON.writeValueAsString(Map.of("prescriberId", prescriberId)), 200);
                    prepared.add(new Prepared(requestId, itemId));
                    return null;
                }));
            }
            for (var w : work) {
                w.get(120, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        return new ArrayList<>(prepared);
    }

    /** Request id -> the item.approved delivery's created_at (ms): taken by the intake just before its one statement. */
    private Map<String, Long> intakeTimes(String partnerId) throws Exception {
        Map<String, Long> times = new HashMap<>();
        try (PreparedStatement st = db.prepareStatement("SELECT body::json->>'requestId', created_at FROM deliveries"
                + " WHERE partner_id = ? AND event = 'item.approved'")) {
            st.setString(1, partnerId);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    times.put(rs.getString(1), rs.getTimestamp(2).getTime());
                }
            }
        }
        return times;
    }

    private void report(Results results, Map<String, long[]> responses, Histogram calls, KafkaTap tap, Map<String, Long> intake) {
        List<Long> total = new ArrayList<>();
        List<Long> outbox = new ArrayList<>();
        List<Long> webhook = new ArrayList<>();
        List<Long> consumed = new ArrayList<>();
        List<Long> plain = new ArrayList<>();
        List<Long> sent = new ArrayList<>();
        int missing = 0;
        int before = 0;
        int unsigned = 0;
        for (Map.Entry<String, long[]> response : responses.entrySet()) {
            Receiver.Arrival arrival = receiver.approved.get(response.getKey());
            if (arrival == null) {
                missing++;
                continue;
            }
            if (!arrival.signed()) {
                unsigned++;
            }
            long micros = (arrival.nanos() - response.getValue()[0]) / 1000;
            if (micros < 0) {
                before++; // the webhook outran the approving call's response on its way back to the client
            }
            total.add(micros);
            Long onKafka = tap.created.get(response.getKey());
            Long stored = intake.get(response.getKey());
            if (onKafka != null) {
                outbox.add((onKafka - response.getValue()[1]) * 1000);
                webhook.add((arrival.millis() - onKafka) * 1000);
                Long tapped = tap.seen.get(response.getKey());
                if (tapped != null) {
                    plain.add((tapped - onKafka) * 1000);
                }
                if (stored != null) {
                    consumed.add((stored - onKafka) * 1000);
                    sent.add((arrival.millis() - stored) * 1000);
                }
            }
        }
        System.out.printf("approving call (through the gateway): p50 %.1f ms, p99 %.1f ms%n",
                calls.getValueAtPercentile(50) / 1000.0, calls.getValueAtPercentile(99) / 1000.0);
        System.out.printf("approve response -> item.approved received: %s over %d approvals (%d not received within 30 s,"
                + " %d received before the response, %d with a wrong signature)%n", Percentiles.of(total), total.size(),
                missing, before, unsigned);
        System.out.printf("  of which response -> on Kafka (requests-service: commit, outbox relay poll, publish): %s%n",
                Percentiles.of(outbox));
        System.out.printf("  of which on Kafka -> received (webhook-service: consume, store, sign, POST): %s%n",
                Percentiles.of(webhook));
        System.out.printf("    on Kafka -> intake about to store (broker, consumer fetch, batch to a worker, parse): %s%n",
                Percentiles.of(consumed));
        System.out.printf("      (for comparison, on Kafka -> polled by a plain consumer in the bench JVM: %s)%n",
                Percentiles.of(plain));
        System.out.printf("    intake -> received (the intake's statement, hand-off, sign, DNS and SSRF check, POST): %s%n",
                Percentiles.of(sent));
        System.out.printf("  (split at the envelope's Kafka timestamp, millisecond wall clock; %d of %d envelopes seen on"
                + " care.events)%n", outbox.size(), total.size());
        p99Ms = total.isEmpty() ? Double.NaN : Percentiles.percentile(total, 99) / 1000.0;
        results.record("latency.approveCall.p50Ms", calls.getValueAtPercentile(50) / 1000.0, "ms",
                "approving call through the gateway, p50");
        results.record("latency.approveCall.p99Ms", calls.getValueAtPercentile(99) / 1000.0, "ms",
                "approving call through the gateway, p99");
        results.latencies("latency.endToEnd", "approve response -> item.approved received", total, Results.Role.HEADLINE);
        if (!total.isEmpty()) {
            results.aim("latency.endToEnd.p99Ms", "under 10 ms unloaded, every webhook received", p99Ms < 10 && missing == 0);
        }
        results.record("latency.endToEnd.notReceived", missing, "approvals", "approvals whose webhook was not received within 30 s");
        results.latencies("latency.toKafka", "approve response -> on Kafka (requests-service)", outbox, Results.Role.DETAIL);
        results.latencies("latency.kafkaToReceived", "on Kafka -> received (webhook-service)", webhook, Results.Role.DETAIL);
        results.latencies("latency.kafkaToIntake", "on Kafka -> intake about to store", consumed, Results.Role.DETAIL);
        results.latencies("latency.kafkaToPlainConsumer", "on Kafka -> polled by a plain consumer (comparison)", plain,
                Results.Role.DETAIL);
        results.latencies("latency.intakeToReceived", "intake -> received", sent, Results.Role.DETAIL);
    }
}
