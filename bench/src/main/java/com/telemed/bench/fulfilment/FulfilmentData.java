package com.telemed.bench.fulfilment;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.bench.support.GatewayApi;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the benchmark transmits, set up through the gateway as a partner and the console would: one
 * partner (no fulfilment setting: automatic, so a {@code pharmacySendAt} ahead makes an approval
 * scheduled), a drug whose pharmacy is {@code integration_a} (the loopback pharmacy's method), a
 * prescriber, {@link #MEMBERS} members, then requests of one item each with {@code pharmacySendAt}
 * an hour ahead, and every item approved through {@code POST /ops/v1/requests/:id/items/:itemId/approve}:
 * due in an hour, scheduled. {@link #CLIENTS} concurrent clients. The item ids are read from
 * requests-service's database (the create answers only the request id).
 */
final class FulfilmentData {

    static final String DRUG_ID = "bench-fulfilment-semaglutide";
    static final int MEMBERS = 100;
    static final int CLIENTS = 8;

    /** One approved, scheduled item. */
    record Item(UUID requestId, UUID itemId) {
    }

    private final GatewayApi api;
    private final String partnerId;
    private final String apiKey;
    private final String prescriberId;
    private final List<String> members;
    private final AtomicInteger created = new AtomicInteger();

    private FulfilmentData(GatewayApi api, String partnerId, String apiKey, String prescriberId, List<String> members) {
        this.api = api;
        this.partnerId = partnerId;
        this.apiKey = apiKey;
        this.prescriberId = prescriberId;
        this.members = members;
    }

    static FulfilmentData create(GatewayApi api) throws Exception {
        JsonNode partner = api.partner("Bench Fulfilment");
        String partnerId = partner.path("partner").path("id").asText();
        String apiKey = partner.path("apiKey").asText();
        api.send("PUT", "/ops/v1/drugs/" + DRUG_ID, """
                {"name": "Semaglutide (bench)", "classification": "non-controlled",
                 "skus": [{"label": "0.25 mg", "active": true}],
                 "pharmacy": {"id": "bench-loopback-pharmacy", "method": "integration_a"}}""", 200);
        String prescriberId = api.send("POST", "/ops/v1/prescribers", GatewayApi.JSON.writeValueAsString(Map.of(
                "name", "Dr. Bench Fulfilment", "email", "prescriber.fulfilment." + System.nanoTime() + "@example.com")), 201)
                .path("prescriber").path("id").asText();
        List<String> members = new ArrayList<>();
        for (int i = 0; i < MEMBERS; i++) {
            members.add(api.as(apiKey, "POST", "/v1/members", """
                    {"firstName": "Ada", "lastName": "Fulfilment%d", "email": "ada.fulfilment.%d@example.com",
                     "dateOfBirth": "1980-02-03", "state": "CA", "phone": "+14155550100",
                     "address": {"street1": "%d Main St", "city": "Springfield", "state": "CA", "zipCode": "90001"}}"""
                    .formatted(i, i, i + 1), 201).path("member").path("id").asText());
        }
        return new FulfilmentData(api, partnerId, apiKey, prescriberId, List.copyOf(members));
    }

    String partnerId() {
        return partnerId;
    }

    /**
     * {@code count} requests (one item each, {@code pharmacySendAt} an hour ahead) created, then
     * approved, by {@link #CLIENTS} clients; their items, all approved and due in an hour.
     */
    List<Item> scheduled(Connection requestsDb, int count) throws Exception {
        String sendAt = Instant.now().plus(1, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS).toString();
        List<String> requestIds = Collections.synchronizedList(new ArrayList<>());
        parallel(count, i -> {
            int n = created.getAndIncrement();
            requestIds.add(api.as(apiKey, "POST", "/v1/requests", GatewayApi.JSON.writeValueAsString(Map.of(
                    "memberId", members.get(n % members.size()),
                    "caseNotes", "bench fulfilment " + n,
                    "pharmacySendAt", sendAt,
                    "items", List.of(Map.of("drugId", DRUG_ID, "dosage", "0.25 mg")))), 201).path("requestId").asText());
        });
        Map<UUID, UUID> items = itemsOf(requestsDb, requestIds);
        List<Item> all = new ArrayList<>();
        items.forEach((request, item) -> all.add(new Item(request, item)));
        String approval = GatewayApi.JSON.writeValueAsString(Map.of("prescriberId", prescriberId, "prescription", Map.of(
                "quantity", 4, "daysSupply", 28, "directions", "Inject 0.25 mg under the skin once weekly", "refills", 2,
                "dispenseAsWritten", false)));
        parallel(all.size(), i -> {
            Item item = all.get(i);
            api.send("POST", "/ops/v1/requests/" + item.requestId() + "/items/" + item.itemId() + "/approve", approval, 200);
        });
        return all;
    }

    private static Map<UUID, UUID> itemsOf(Connection db, List<String> requestIds) throws Exception {
        Map<UUID, UUID> items = new HashMap<>();
        try (PreparedStatement st = db.prepareStatement("SELECT request_id, id FROM line_items WHERE request_id = ANY(?)")) {
            st.setArray(1, db.createArrayOf("uuid", requestIds.toArray()));
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    items.put(rs.getObject(1, UUID.class), rs.getObject(2, UUID.class));
                }
            }
        }
        if (items.size() != requestIds.size()) {
            throw new IllegalStateException(requestIds.size() + " requests created but " + items.size() + " items found");
        }
        return items;
    }

    interface Call {
        void run(int index) throws Exception;
    }

    /** {@code count} calls on {@link #CLIENTS} threads; the first failure fails the setup. */
    private static void parallel(int count, Call call) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
        try {
            List<Future<?>> work = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                int index = i;
                work.add(pool.submit(() -> {
                    call.run(index);
                    return null;
                }));
            }
            for (Future<?> each : work) {
                each.get(180, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
