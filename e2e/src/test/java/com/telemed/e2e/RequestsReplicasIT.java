package com.telemed.e2e;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import com.telemed.testkit.concurrent.Parallel;
import com.telemed.testkit.e2e.RunningPlatform;
import com.telemed.testkit.http.JsonCalls;
import com.telemed.testkit.kafka.TopicReader;
import com.telemed.testkit.platform.PlatformService;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Queue;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two requests-service replicas of a production deployment, each background job doing its work
 * exactly once: the pharmacy dispatcher sends every due item once
 * ({@link #twoReplicasSendEveryDueItemToThePharmacyExactlyOnce}), the reminder job sends every due
 * reminder once ({@link #twoReplicasSendEachDueReminderExactlyOnce}).
 *
 * <p>On the platform the test JVM shares, requests-service is started again once for both tests
 * ({@link #restartWithAReplica}), as a production deployment ({@code SERVICE_ENVIRONMENT=production})
 * with a second replica beside it, the two JVMs starting together; when both tests have run the
 * replica stops and requests-service runs as before ({@link #putBack}). Both replicas have the
 * settings both tests need: the pharmacy (a real HTTP server in this JVM, WireMock,
 * {@code PHARMACY_INTEGRATION_A_URL}) at a path of each replica's own, so that the orders show which
 * replica sent them; one reminder offset of an hour ({@code APPOINTMENT_REMINDER_OFFSETS=1h}),
 * reminder batches of one and a short poll interval, so that both replicas' reminder jobs are at work
 * on the due rows at once (with the default batch of 100 the first tick would take all 100 alone);
 * and SQL in the log, to tell which replica claimed which reminder.
 *
 * <p>It is the first Jupiter class ({@code @Order}): before it only the bad-input property ran,
 * which leaves no item due at a pharmacy and books no appointment, so every order the pharmacy gets
 * is the fulfilment test's, and every reminder claimed in its window the reminders test's (the
 * fulfilment test, which runs first, books none; the reminders test's drug has no pharmacy).
 *
 * <h2>Fulfilment</h2>
 * The dispatcher (requests-service README, "Dispatcher": one claim per item, rows claimed with
 * {@code FOR UPDATE SKIP LOCKED} and a lease). The pharmacy accepts every order with
 * {@code 201 {"orderId": "PH-<Idempotency-Key>"}} after a short delay. 200 requests are created
 * through the gateway with one {@code pharmacySendAt} a little ahead and approved before it comes
 * (nothing reaches the pharmacy before), so all 200 come due together and both replicas'
 * dispatchers compete for them. Then: every item reads {@code pharmacySent: true} with the
 * pharmacy's order id; the pharmacy got exactly 200 orders whose {@code Idempotency-Key}s (and
 * {@code orderReference}s) are exactly the 200 item ids; each item's history has exactly one
 * {@code sent_to_pharmacy}; and both replicas sent some.
 *
 * <h2>Reminders</h2>
 * Each due {@code appointment.reminder} is sent exactly once (operations-api.md, "Consultations":
 * "once per offset, also with several replicas running"; requests-service README, "Reminders": each
 * replica's job claims due rows with {@code FOR UPDATE SKIP LOCKED} and writes the event in the
 * claiming transaction). 100 requests are created, their consultations requested and booked through
 * the gateway, every appointment starting at one instant T: an hour plus a margin ahead, the margin
 * measured from the pace of a warm-up round, so all 100 reminders come due together at T - 1 h,
 * shortly after the bookings (the test fails, saying so, when booking ended after that). Then:
 * exactly 100 {@code appointment.reminder} events of those requests are on {@code care.events}
 * (TopicReader reads on after the hundredth, so one more would show), one per appointment, keyed by
 * its request, none sent before it was due, each payload exactly the contract's; and the
 * {@code update appointment_reminders set sent_at} statements in the two replicas' logs are 100
 * together and more than none in each. When the test ends its requests' items are denied (the
 * review queue is every partner's).
 */
@ExtendWith(RunningPlatform.class)
@Order(1)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RequestsReplicasIT {

    private static final int CLIENTS = 8;
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final System.Logger LOG = System.getLogger(RequestsReplicasIT.class.getName());

    // ---- fulfilment ------------------------------------------------------------------------------

    private static final int FULFILMENT_ITEMS = 200;
    /** Warm-up requests (on a deferred account: nothing of theirs reaches the pharmacy) that measure the pace. */
    private static final int FULFILMENT_WARM_UP = 16;
    /**
     * A warm-up round is repeated while it runs this much faster than the one before (at most
     * {@link #WARM_UP_ROUNDS} rounds): the first rounds run on cold JVMs, and beside the concurrent
     * classes' starts, several times slower per item than the batch that follows them.
     */
    private static final double STILL_WARMING = 0.85;
    private static final int WARM_UP_ROUNDS = 5;
    /** How long the pharmacy takes per order: one replica alone could not send 200 in a poll interval. */
    private static final int PHARMACY_DELAY_MILLIS = 200;
    /** pharmacySendAt is this many times the measured time for the 200 ahead... */
    private static final int FULFILMENT_SLACK = 2;
    /** ...and at least this far (the 200 take 8 to 10 s on two cores). */
    private static final Duration MIN_AHEAD = Duration.ofSeconds(15);
    private static final String FIRST = "/orders/first";
    private static final String SECOND = "/orders/second";

    // ---- reminders -------------------------------------------------------------------------------

    private static final int REMINDER_APPOINTMENTS = 100;
    private static final int REMINDER_WARM_UP = 10;
    private static final Duration OFFSET = Duration.ofHours(1);
    /** The margin is this many times the measured time for the 100 ahead... */
    private static final int REMINDER_SLACK = 2;
    /** ...and at least this far (the 100 bookings take 3 to 7 s on two cores). */
    private static final Duration MIN_MARGIN = Duration.ofSeconds(10);
    private static final int REMINDER_DURATION_MINUTES = 30;
    private static final String ZONE = "Europe/Berlin";
    /**
     * One offset; one reminder per transaction, looked for every 100 ms (a replica drains transaction
     * after transaction while they come full, so both replicas' jobs are at work together: with
     * batches of 5 the replica that ticked first, its code warm from the bookings, took 95 of the 100
     * while the other one's first batch ran cold); and SQL in the log, to tell which replica claimed which.
     */
    private static final Map<String, String> REMINDER_ENVIRONMENT = Map.of(
            "APPOINTMENT_REMINDER_OFFSETS", "1h",
            "REQUESTS_APPOINTMENTS_REMINDER_BATCH_SIZE", "1",
            "REQUESTS_APPOINTMENTS_REMINDER_POLL_INTERVAL", "100ms",
            "QUARKUS_HIBERNATE_ORM_LOG_SQL", "true",
            "QUARKUS_HIBERNATE_ORM_LOG_FORMAT_SQL", "false",
            "QUARKUS_HIBERNATE_ORM_LOG_HIGHLIGHT_SQL", "false");
    private static final Pattern CLAIMED = Pattern.compile("(?i)update\\s+appointment_reminders\\s+set\\s+sent_at");
    private static final DateTimeFormatter WIRE = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'")
            .withZone(ZoneOffset.UTC);

    /** The pharmacy both replicas post orders to, each at its own path. */
    private static WireMockServer pharmacy;
    /** The second replica, started beside requests-service's first instance. */
    private static URI replica;

    private final JsonCalls calls = new JsonCalls(CALL_TIMEOUT);
    private URI gateway;
    private String opsKey;
    private String apiKey;
    private String requestDrug;
    private String prescriberId;

    /** A created and approved item. */
    private record Item(String requestId, String itemId) {
    }

    /** A booked appointment of its own request. */
    private record Booked(String requestId, String appointmentId) {
    }

    /** Every request the reminders test created, with its one item: each awaits review until the end denies it. */
    private final Queue<String[]> created = new ConcurrentLinkedQueue<>();

    @BeforeAll
    static void restartWithAReplica(RunningPlatform.Handle platform) {
        pharmacy = new WireMockServer(wireMockConfig().bindAddress("127.0.0.1").dynamicPort().containerThreads(64));
        pharmacy.start();
        pharmacy.stubFor(post(urlPathMatching("/orders/(first|second)")).willReturn(aResponse().withStatus(201)
                .withHeader("Content-Type", "application/json")
                .withBody("{\"orderId\": \"PH-{{request.headers.Idempotency-Key}}\"}")
                .withTransformers("response-template")
                .withFixedDelay(PHARMACY_DELAY_MILLIS)));
        String pharmacyUrl = "http://127.0.0.1:" + pharmacy.port();
        replica = platform.platform().restartWithReplica(PlatformService.REQUESTS,
                environment(pharmacyUrl + FIRST), environment(pharmacyUrl + SECOND));
    }

    /** A production deployment's replica with its own pharmacy path, and the reminders' settings. */
    private static Map<String, String> environment(String pharmacyUrl) {
        Map<String, String> environment = new HashMap<>(REMINDER_ENVIRONMENT);
        environment.put("SERVICE_ENVIRONMENT", "production");
        // The operator key plays the prescribers here (claims, approvals, 120 consultations with a
        // prescriber each), which a production deployment refuses (403 "A prescriber must act in
        // person", issue #40): this test is about replicas, so its access rules stay the sandbox's.
        // The in-person rules are requests-service's InPersonTest and the gateway's IdentityTest.
        environment.put("PLATFORM_ACCESS_ENVIRONMENT", "sandbox");
        environment.put("PHARMACY_INTEGRATION_A_URL", pharmacyUrl);
        return environment;
    }

    @AfterAll
    static void putBack(RunningPlatform.Handle platform) {
        try {
            if (replica != null) {
                platform.platform().stopReplica(replica);
            }
            platform.platform().restart(PlatformService.REQUESTS, Map.of());
        } finally {
            if (pharmacy != null) {
                pharmacy.stop();
            }
        }
    }

    @Test
    @Order(1)
    void twoReplicasSendEveryDueItemToThePharmacyExactlyOnce(RunningPlatform.Handle platform) throws Exception {
        gateway = platform.gateway();
        opsKey = platform.opsKey();

        String drugId = "rep-e2e-" + UUID.randomUUID().toString().substring(0, 8);
        expect(200, call("PUT", "/ops/v1/drugs/" + drugId, ops(), """
                {"name": "Metformin Replicas", "classification": "non-controlled",
                 "skus": [{"label": "500 mg", "active": true}], "pharmacy": {"id": "pharm-a", "method": "integration_a"}}"""));
        String prescriber = expect(201, call("POST", "/ops/v1/prescribers", ops(),
                Map.of("name", "Dr Replica", "email", "replica." + UUID.randomUUID() + "@clinic.example")))
                .json().at("/prescriber/id").asText();

        // The pace of create, claim and approve here, measured on a deferred account once the
        // services have warmed up (the first round, on cold JVMs, is several times slower).
        String[] warmUp = partnerWithMember();
        expect(200, call("PUT", "/ops/v1/partners/" + warmUp[0] + "/fulfilment", ops(), Map.of("mode", "deferred")));
        Duration warmUpTook = warmRound(FULFILMENT_WARM_UP, n -> createAndApprove(warmUp, drugId, prescriber, null));
        assertEquals(0, orders(pharmacy).size(), "a deferred account's approvals reached the pharmacy");

        // All 200 due at one instant: the measured time for 200 times the slack ahead, at least MIN_AHEAD.
        Duration needed = warmUpTook.multipliedBy(FULFILMENT_ITEMS).dividedBy(FULFILMENT_WARM_UP);
        Duration ahead = needed.multipliedBy(FULFILMENT_SLACK).compareTo(MIN_AHEAD) < 0 ? MIN_AHEAD : needed.multipliedBy(FULFILMENT_SLACK);
        Instant sendAt = Instant.now().plus(ahead).truncatedTo(ChronoUnit.MILLIS);
        String[] automatic = partnerWithMember();
        long approvalsStart = System.nanoTime();
        List<Item> items = parallel(IntStream.range(0, FULFILMENT_ITEMS).boxed().toList(),
                n -> createAndApprove(automatic, drugId, prescriber, sendAt.toString()));
        Instant approvedAll = Instant.now();
        log("fulfilment", "warm-up: " + FULFILMENT_WARM_UP + " requests in " + warmUpTook.toMillis() + " ms; pharmacySendAt " + ahead.toMillis()
                + " ms ahead; " + FULFILMENT_ITEMS + " created and approved in " + Duration.ofNanos(System.nanoTime() - approvalsStart).toMillis()
                + " ms, " + Duration.between(approvedAll, sendAt).toMillis() + " ms before pharmacySendAt");
        assertTrue(approvedAll.isBefore(sendAt), "the " + FULFILMENT_ITEMS + " approvals ended at " + approvedAll + ", after their pharmacySendAt "
                + sendAt + " (warm-up: " + FULFILMENT_WARM_UP + " in " + warmUpTook.toMillis() + " ms): this run was slower than measured");
        assertEquals(0, orders(pharmacy).size(), "orders reached the pharmacy before their pharmacySendAt");

        // Both dispatchers at work: every order arrives, then nothing more.
        await("200 orders at the pharmacy").atMost(ahead.plusSeconds(60)).pollInterval(Duration.ofMillis(250))
                .until(() -> orders(pharmacy).size() >= FULFILMENT_ITEMS);
        await("no order beyond the 200").during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5))
                .until(() -> orders(pharmacy).size() == FULFILMENT_ITEMS);

        List<LoggedRequest> orders = orders(pharmacy);
        Set<String> itemIds = items.stream().map(Item::itemId).collect(Collectors.toSet());
        Map<String, Item> byItem = items.stream().collect(Collectors.toMap(Item::itemId, item -> item));
        assertEquals(FULFILMENT_ITEMS, itemIds.size());
        List<String> keys = orders.stream().map(order -> order.getHeader("Idempotency-Key")).toList();
        assertEquals(FULFILMENT_ITEMS, keys.size());
        assertEquals(itemIds, new HashSet<>(keys), "the orders' Idempotency-Keys are the item ids, each once");
        Map<String, Integer> perReplica = new HashMap<>();
        for (LoggedRequest order : orders) {
            JsonNode body = JSON.readTree(order.getBodyAsString());
            String key = order.getHeader("Idempotency-Key");
            assertEquals(key, body.path("orderReference").asText());
            assertEquals(byItem.get(key).requestId(), body.path("requestId").asText());
            assertEquals("integration_a", body.path("method").asText());
            assertEquals("pharm-a", body.path("pharmacyId").asText());
            assertTrue(!order.getLoggedDate().toInstant().isBefore(sendAt), "an order before its pharmacySendAt");
            perReplica.merge(order.getUrl(), 1, Integer::sum);
        }
        Instant last = orders.stream().map(order -> order.getLoggedDate().toInstant()).max(Instant::compareTo).orElseThrow();
        log("fulfilment", "orders per replica: " + perReplica + "; the last arrived " + Duration.between(sendAt, last).toMillis()
                + " ms after pharmacySendAt");
        assertEquals(Set.of(FIRST, SECOND), perReplica.keySet(), "orders per replica: " + perReplica);

        // As the partner reads them: sent, with the pharmacy's order id, and one sent_to_pharmacy each.
        List<String> problems = parallel(items, item -> {
            JsonNode detail = expect(200, call("GET", "/v1/requests/" + item.requestId(), key(automatic), null)).json();
            JsonNode line = detail.at("/lineItems/0");
            List<String> actions = new ArrayList<>();
            line.path("history").forEach(entry -> actions.add(entry.path("action").asText()));
            boolean ok = line.path("pharmacySent").asBoolean()
                    && line.path("itemId").asText().equals(item.itemId())
                    && line.path("pharmacySentAt").isTextual()
                    && ("PH-" + item.itemId()).equals(line.at("/prescriptionRecord/pharmacyOrderId").asText())
                    && "sent_to_pharmacy".equals(line.at("/prescriptionRecord/status").asText())
                    && actions.equals(List.of("created", "approved", "sent_to_pharmacy"));
            return ok ? null : item.itemId() + ": " + line;
        }).stream().filter(Objects::nonNull).toList();
        assertEquals(List.of(), problems);
    }

    @Test
    @Order(2)
    void twoReplicasSendEachDueReminderExactlyOnce(RunningPlatform.Handle platform) throws Exception {
        Path mainLog = platform.platform().log(PlatformService.REQUESTS);
        long mainLogFrom = Files.exists(mainLog) ? Files.size(mainLog) : 0;
        Path replicaLog = platform.platform().replicaLog(replica);
        long replicaLogFrom = Files.exists(replicaLog) ? Files.size(replicaLog) : 0;
        gateway = platform.gateway();
        opsKey = platform.opsKey();
        try {
            JsonNode partner = expect(201, call("POST", "/ops/v1/partners", ops(),
                    Map.of("name", "Reminders E2E " + UUID.randomUUID()))).json();
            apiKey = partner.path("apiKey").asText();
            String email = "frances." + UUID.randomUUID() + "@example.com";
            String memberId = expect(201, call("POST", "/v1/members", key(), """
                    {"firstName": "Frances", "lastName": "Allen", "email": "%s",
                     "dateOfBirth": "1932-08-04", "state": "NY", "phone": "555-0190",
                     "address": {"street1": "1 Kitchawan Rd", "city": "Yorktown Heights", "state": "NY", "zipCode": "10598"}}"""
                    .formatted(email))).json().at("/member/id").asText();
            requestDrug = "rem-e2e-" + UUID.randomUUID().toString().substring(0, 8);
            expect(200, call("PUT", "/ops/v1/drugs/" + requestDrug, ops(), """
                    {"name": "Semaglutide Reminders", "classification": "non-controlled",
                     "skus": [{"label": "0.25 mg", "active": true}], "pharmacy": {"id": "sandbox", "method": "none"}}"""));
            prescriberId = expect(201, call("POST", "/ops/v1/prescribers", ops(),
                    Map.of("name", "Dr Reminder", "email", "reminder." + UUID.randomUUID() + "@clinic.example")))
                    .json().at("/prescriber/id").asText();

            // The pace of create, request-consultation and book, once the services have warmed up; the
            // warm-up appointments start in three days, so their reminders are not due during the test.
            Instant later = Instant.now().plus(Duration.ofDays(3)).truncatedTo(ChronoUnit.MINUTES);
            Duration warmUpTook = warmRound(REMINDER_WARM_UP, n -> book(memberId, later));

            // Every appointment starts at T; the reminders come due at T - 1 h, a margin after now.
            Duration needed = warmUpTook.multipliedBy(REMINDER_APPOINTMENTS).dividedBy(REMINDER_WARM_UP);
            Duration margin = needed.multipliedBy(REMINDER_SLACK).compareTo(MIN_MARGIN) < 0 ? MIN_MARGIN : needed.multipliedBy(REMINDER_SLACK);
            Instant start = Instant.now().plus(OFFSET).plus(margin).truncatedTo(ChronoUnit.SECONDS);
            Instant due = start.minus(OFFSET);
            long bookingStart = System.nanoTime();
            List<Booked> booked = parallel(IntStream.range(0, REMINDER_APPOINTMENTS).boxed().toList(), n -> book(memberId, start));
            Instant bookedAll = Instant.now();
            log("reminders", "warm-up: " + REMINDER_WARM_UP + " booked in " + warmUpTook.toMillis() + " ms; reminders due " + margin.toMillis()
                    + " ms ahead; " + REMINDER_APPOINTMENTS + " booked in " + Duration.ofNanos(System.nanoTime() - bookingStart).toMillis()
                    + " ms, " + Duration.between(bookedAll, due).toMillis() + " ms before the reminders' due time");
            assertTrue(bookedAll.isBefore(due), "the " + REMINDER_APPOINTMENTS + " bookings ended at " + bookedAll + ", after their reminders' due time "
                    + due + " (an offset already passed at booking is skipped; warm-up: " + REMINDER_WARM_UP + " in "
                    + warmUpTook.toMillis() + " ms): this run was slower than measured");

            // Exactly 100 reminders of these requests on care.events, one per appointment.
            Map<String, Booked> byRequest = booked.stream().collect(Collectors.toMap(Booked::requestId, Function.identity()));
            assertEquals(REMINDER_APPOINTMENTS, byRequest.size());
            Duration wait = Duration.between(Instant.now(), due).plusSeconds(60);
            List<ConsumerRecord<String, String>> records = TopicReader.readExactly(platform.infrastructure().kafka().bootstrapServers(),
                    "care.events", record -> byRequest.containsKey(record.key())
                            && "appointment.reminder".equals(TopicReader.json(record).path("type").asText()),
                    REMINDER_APPOINTMENTS, wait);
            Set<String> reminded = new HashSet<>();
            Instant last = due;
            for (ConsumerRecord<String, String> record : records) {
                Booked appointment = byRequest.get(record.key());
                JsonNode reminder = TopicReader.json(record).path("webhook");
                assertTrue(reminded.add(reminder.path("appointmentId").asText()), "a second reminder: " + reminder);
                String timestamp = reminder.path("timestamp").asText();
                Instant sent = Instant.parse(timestamp);
                assertFalse(sent.isBefore(due), "a reminder sent at " + timestamp + ", before it was due at " + due);
                last = sent.isAfter(last) ? sent : last;
                Map<String, Object> expected = new LinkedHashMap<>();
                expected.put("event", "appointment.reminder");
                expected.put("requestId", appointment.requestId());
                expected.put("memberId", memberId);
                expected.put("appointmentId", appointment.appointmentId());
                expected.put("patientName", "Frances Allen");
                expected.put("patientEmail", email);
                expected.put("prescriberName", "Dr Reminder");
                expected.put("startTime", WIRE.format(start));
                expected.put("endTime", WIRE.format(start.plus(Duration.ofMinutes(REMINDER_DURATION_MINUTES))));
                expected.put("timezone", ZONE);
                expected.put("timestamp", WIRE.format(sent));
                assertEquals(JSON.valueToTree(expected), reminder);
                assertEquals(List.copyOf(expected.keySet()), fieldNames(reminder));
            }
            assertEquals(booked.stream().map(Booked::appointmentId).collect(Collectors.toSet()), reminded);

            // Both replicas claimed some: their logged claims (one update per reminder) make 100 together.
            int first = claims(mainLog, mainLogFrom);
            int second = claims(replicaLog, replicaLogFrom);
            log("reminders", "reminders claimed per replica: " + first + " and " + second + "; the last sent "
                    + Duration.between(due, last).toMillis() + " ms after they came due");
            assertEquals(REMINDER_APPOINTMENTS, first + second, "claims logged: " + first + " + " + second);
            assertTrue(first > 0 && second > 0, "claims per replica: " + first + " and " + second);
        } finally {
            denyWhatAwaitsReview();
        }
    }

    /** A new partner and one member of it: {partnerId, apiKey, memberId}. */
    private String[] partnerWithMember() throws IOException, InterruptedException {
        JsonNode created = expect(201, call("POST", "/ops/v1/partners", ops(),
                Map.of("name", "Replicas E2E " + UUID.randomUUID()))).json();
        String[] partner = {created.at("/partner/id").asText(), created.path("apiKey").asText(), null};
        partner[2] = expect(201, call("POST", "/v1/members", key(partner), """
                {"firstName": "Frances", "lastName": "Allen", "email": "frances.%s@example.com",
                 "dateOfBirth": "1932-08-04", "state": "NY", "phone": "555-0190",
                 "address": {"street1": "1 Kitchawan Rd", "city": "Yorktown Heights", "state": "NY", "zipCode": "10598"}}"""
                .formatted(UUID.randomUUID()))).json().at("/member/id").asText();
        return partner;
    }

    /** A request created by the partner (with {@code pharmacySendAt} when given), claimed and approved in the console. */
    private Item createAndApprove(String[] partner, String drugId, String prescriberId, String sendAt)
            throws IOException, InterruptedException {
        Map<String, Object> body = new HashMap<>(Map.of("memberId", partner[2], "caseNotes", "Itchy rash on both forearms (replicas run)",
                "items", List.of(Map.of("drugId", drugId, "dosage", "500 mg"))));
        if (sendAt != null) {
            body.put("pharmacySendAt", sendAt);
        }
        String requestId = expect(201, call("POST", "/v1/requests", key(partner), body)).json().path("requestId").asText();
        String itemId = expect(200, call("POST", "/ops/v1/requests/" + requestId + "/claim", ops(),
                Map.of("prescriberId", prescriberId))).json().at("/request/lineItems/0/itemId").asText();
        expect(200, call("POST", "/ops/v1/requests/" + requestId + "/items/" + itemId + "/approve", ops(),
                Map.of("prescriberId", prescriberId, "prescription", Map.of("quantity", 60, "quantityUnits", "tablets",
                        "daysSupply", 30, "directions", "One tablet twice daily", "refills", 2, "dispenseAsWritten", false))));
        return new Item(requestId, itemId);
    }

    private static List<LoggedRequest> orders(WireMockServer pharmacy) {
        return pharmacy.findAll(postRequestedFor(urlPathMatching("/orders/.*")));
    }

    /**
     * The review queue is every partner's, oldest first, and shows at most 100: the 120 requests this
     * test leaves with a consultation requested would hide the requests of the classes after it on
     * the shared platform. Their items are denied, as a prescriber would once the calls took place.
     */
    private void denyWhatAwaitsReview() throws Exception {
        parallel(List.copyOf(created), request -> expect(200, call("POST", "/ops/v1/requests/" + request[0] + "/items/"
                + request[1] + "/deny", ops(), Map.of("prescriberId", prescriberId, "reason", "the reminders run is over"))));
    }

    /**
     * A request created by the partner, its consultation requested in the console with a prescriber of its own
     * and booked with the link's token.
     */
    private Booked book(String memberId, Instant start) throws IOException, InterruptedException {
        String requestId = expect(201, call("POST", "/v1/requests", key(), Map.of("memberId", memberId, "caseNotes", "Needs a follow-up on blood pressure (reminders run)",
                "items", List.of(Map.of("drugId", requestDrug, "dosage", "0.25 mg"))))).json().path("requestId").asText();
        String itemId = expect(200, call("GET", "/v1/requests/" + requestId, key(), null)).json().at("/lineItems/0/itemId").asText();
        created.add(new String[] {requestId, itemId});
        // A prescriber of its own: every appointment starts at the one instant T, and one prescriber never has two
        // appointments that overlap (requests-service's exclusion constraint, issue 39).
        String consulting = expect(201, call("POST", "/ops/v1/prescribers", ops(),
                Map.of("name", "Dr Reminder", "email", "reminder." + UUID.randomUUID() + "@clinic.example")))
                .json().at("/prescriber/id").asText();
        String url = expect(200, call("POST", "/ops/v1/requests/" + requestId + "/items/" + itemId + "/request-consultation", ops(),
                Map.of("prescriberId", consulting))).json().at("/booking/bookingUrl").asText();
        String token = url.substring(url.lastIndexOf('/') + 1);
        String appointmentId = expect(201, call("POST", "/ops/v1/bookings/" + token + "/appointment", ops(),
                Map.of("startTime", start.toString(), "durationMinutes", REMINDER_DURATION_MINUTES, "timezone", ZONE)))
                .json().at("/appointment/id").asText();
        return new Booked(requestId, appointmentId);
    }

    /** The reminders a replica claimed since {@code from}: its logged {@code update appointment_reminders set sent_at}. */
    private static int claims(Path log, long from) throws IOException {
        byte[] bytes = Files.readAllBytes(log);
        Matcher matcher = CLAIMED.matcher(new String(bytes, (int) from, bytes.length - (int) from, StandardCharsets.UTF_8));
        int count = 0;
        while (matcher.find()) {
            count++;
        }
        return count;
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    private static void log(String test, String line) {
        LOG.log(System.Logger.Level.INFO, "RequestsReplicasIT " + test + ": " + line);
    }

    // ---- HTTP -----------------------------------------------------------------------------------

    private Map<String, String> ops() {
        return Map.of("x-ops-key", opsKey);
    }

    private static Map<String, String> key(String[] partner) {
        return Map.of("x-api-key", partner[1]);
    }

    private Map<String, String> key() {
        return Map.of("x-api-key", apiKey);
    }

    private JsonCalls.Answer call(String method, String path, Map<String, String> headers, Object body)
            throws IOException, InterruptedException {
        return calls.call(gateway, method, path, headers, body);
    }

    private static JsonCalls.Answer expect(int status, JsonCalls.Answer answer) {
        return JsonCalls.expect(status, answer);
    }

    /**
     * The time of a warm round of {@code size} steps: rounds of them, one after another, until one
     * is no more than {@link #STILL_WARMING} of the one before it (or {@link #WARM_UP_ROUNDS} have
     * run); the last round's time.
     */
    private static Duration warmRound(int size, Parallel.Step<Integer, ?> step) throws Exception {
        List<Integer> round = IntStream.range(0, size).boxed().toList();
        Duration previous = null;
        for (int n = 1; ; n++) {
            long start = System.nanoTime();
            parallel(round, step);
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            if (n == WARM_UP_ROUNDS || (previous != null && took.toNanos() >= previous.toNanos() * STILL_WARMING)) {
                return took;
            }
            previous = took;
        }
    }

    /** Applies {@code step} to every input on {@link #CLIENTS} threads; the results in input order. */
    private static <T, R> List<R> parallel(List<T> inputs, Parallel.Step<T, R> step) throws Exception {
        return Parallel.map(CLIENTS, inputs, step);
    }
}
