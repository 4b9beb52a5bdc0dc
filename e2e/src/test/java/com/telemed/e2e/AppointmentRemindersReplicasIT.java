package com.telemed.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.telemed.testkit.concurrent.Parallel;
import com.telemed.testkit.http.JsonCalls;
import com.telemed.testkit.e2e.RunningPlatform;
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
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two requests-service replicas send each due {@code appointment.reminder} exactly once
 * (operations-api.md, "Consultations": "once per offset, also with several replicas running";
 * requests-service README, "Reminders": each replica's job claims due rows with
 * {@code FOR UPDATE SKIP LOCKED} and writes the event in the claiming transaction).
 *
 * <p>On the platform the test JVM shares, requests-service is started again, and a second replica
 * beside it, with one reminder offset of an hour ({@code APPOINTMENT_REMINDER_OFFSETS=1h}), reminder batches of one and a
 * short poll interval, so that both replicas' jobs are at work on the due rows at once (with the
 * default batch of 100 the first tick would take all 100 alone). 100 requests are created, their
 * consultations requested and booked through the gateway, every appointment starting at one
 * instant T: an hour plus a margin ahead, the margin measured from the pace of a warm-up round, so
 * all 100 reminders come due together at T - 1 h, shortly after the bookings (the test fails, saying
 * so, when booking ended after that). Then: exactly 100 {@code appointment.reminder} events of those
 * requests are on {@code care.events} (TopicReader reads on after the hundredth, so one more would
 * show), one per appointment, keyed by its request, none sent before it was due, each payload
 * exactly the contract's fields; and both replicas claimed some: each replica logs its SQL
 * ({@code QUARKUS_HIBERNATE_ORM_LOG_SQL}), and the {@code update appointment_reminders set
 * sent_at} statements in the two logs are 100 together and more than none in each. When the test
 * ends its requests' items are denied (the review queue is every partner's), the replica stops and
 * requests-service runs as before. It is the second Jupiter class
 * ({@code @Order}): before it only the bad-input property and FulfilmentReplicasIT ran, which book no
 * appointment, so every reminder claimed in the window is one of this test's.
 */
@ExtendWith(RunningPlatform.class)
@Order(2)
class AppointmentRemindersReplicasIT {

    private static final int APPOINTMENTS = 100;
    private static final int CLIENTS = 8;
    private static final int WARM_UP = 10;
    private static final Duration OFFSET = Duration.ofHours(1);
    /** The margin is this many times the measured time for the 100 ahead... */
    private static final int SLACK = 2;
    /** ...and at least this far. */
    private static final Duration MIN_MARGIN = Duration.ofSeconds(30);
    private static final int DURATION_MINUTES = 30;
    private static final String ZONE = "Europe/Berlin";
    /**
     * Both replicas: one offset; one reminder per transaction, looked for every 100 ms (a replica
     * drains transaction after transaction while they come full, so both replicas' jobs are at work
     * together: with batches of 5 the replica that ticked first, its code warm from the bookings,
     * took 95 of the 100 while the other one's first batch ran cold); and SQL in the log, to tell
     * which replica claimed which.
     */
    private static final Map<String, String> REQUESTS_ENVIRONMENT = Map.of(
            "APPOINTMENT_REMINDER_OFFSETS", "1h",
            "REQUESTS_APPOINTMENTS_REMINDER_BATCH_SIZE", "1",
            "REQUESTS_APPOINTMENTS_REMINDER_POLL_INTERVAL", "100ms",
            "QUARKUS_HIBERNATE_ORM_LOG_SQL", "true",
            "QUARKUS_HIBERNATE_ORM_LOG_FORMAT_SQL", "false",
            "QUARKUS_HIBERNATE_ORM_LOG_HIGHLIGHT_SQL", "false");
    private static final Pattern CLAIMED = Pattern.compile("(?i)update\\s+appointment_reminders\\s+set\\s+sent_at");
    private static final DateTimeFormatter WIRE = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'")
            .withZone(ZoneOffset.UTC);
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final System.Logger LOG = System.getLogger(AppointmentRemindersReplicasIT.class.getName());

    private final JsonCalls calls = new JsonCalls(CALL_TIMEOUT);
    private URI gateway;
    private String opsKey;
    private String apiKey;
    private String requestDrug;
    private String prescriberId;

    /** A booked appointment of its own request. */
    private record Booked(String requestId, String appointmentId) {
    }

    /** Every request this test created, with its one item: each awaits review until the end denies it. */
    private final Queue<String[]> created = new ConcurrentLinkedQueue<>();

    @Test
    void twoReplicasSendEachDueReminderExactlyOnce(RunningPlatform.Handle platform) throws Exception {
        Path mainLog = platform.platform().log(PlatformService.REQUESTS);
        long mainLogFrom = Files.exists(mainLog) ? Files.size(mainLog) : 0;
        URI replica = null;
        try {
            replica = platform.platform().restartWithReplica(PlatformService.REQUESTS, REQUESTS_ENVIRONMENT, REQUESTS_ENVIRONMENT);
            Path replicaLog = platform.platform().replicaLog(replica);
            long replicaLogFrom = Files.exists(replicaLog) ? Files.size(replicaLog) : 0;
            gateway = platform.gateway();
            opsKey = platform.opsKey();

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
            parallel(IntStream.range(0, WARM_UP).boxed().toList(), n -> book(memberId, later));
            long warmUpStart = System.nanoTime();
            parallel(IntStream.range(0, WARM_UP).boxed().toList(), n -> book(memberId, later));
            Duration warmUpTook = Duration.ofNanos(System.nanoTime() - warmUpStart);

            // Every appointment starts at T; the reminders come due at T - 1 h, a margin after now.
            Duration needed = warmUpTook.multipliedBy(APPOINTMENTS).dividedBy(WARM_UP);
            Duration margin = needed.multipliedBy(SLACK).compareTo(MIN_MARGIN) < 0 ? MIN_MARGIN : needed.multipliedBy(SLACK);
            Instant start = Instant.now().plus(OFFSET).plus(margin).truncatedTo(ChronoUnit.SECONDS);
            Instant due = start.minus(OFFSET);
            long bookingStart = System.nanoTime();
            List<Booked> booked = parallel(IntStream.range(0, APPOINTMENTS).boxed().toList(), n -> book(memberId, start));
            Instant bookedAll = Instant.now();
            log("warm-up: " + WARM_UP + " booked in " + warmUpTook.toMillis() + " ms; reminders due " + margin.toMillis()
                    + " ms ahead; " + APPOINTMENTS + " booked in " + Duration.ofNanos(System.nanoTime() - bookingStart).toMillis()
                    + " ms, " + Duration.between(bookedAll, due).toMillis() + " ms before the reminders' due time");
            assertTrue(bookedAll.isBefore(due), "the " + APPOINTMENTS + " bookings ended at " + bookedAll + ", after their reminders' due time "
                    + due + " (an offset already passed at booking is skipped; warm-up: " + WARM_UP + " in "
                    + warmUpTook.toMillis() + " ms): this run was slower than measured");

            // Exactly 100 reminders of these requests on care.events, one per appointment.
            Map<String, Booked> byRequest = booked.stream().collect(Collectors.toMap(Booked::requestId, Function.identity()));
            assertEquals(APPOINTMENTS, byRequest.size());
            Duration wait = Duration.between(Instant.now(), due).plusSeconds(60);
            List<ConsumerRecord<String, String>> records = TopicReader.readExactly(platform.infrastructure().kafka().bootstrapServers(),
                    "care.events", record -> byRequest.containsKey(record.key())
                            && "appointment.reminder".equals(TopicReader.json(record).path("type").asText()),
                    APPOINTMENTS, wait);
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
                expected.put("endTime", WIRE.format(start.plus(Duration.ofMinutes(DURATION_MINUTES))));
                expected.put("timezone", ZONE);
                expected.put("timestamp", WIRE.format(sent));
                assertEquals(JSON.valueToTree(expected), reminder);
                assertEquals(List.copyOf(expected.keySet()), fieldNames(reminder));
            }
            assertEquals(booked.stream().map(Booked::appointmentId).collect(Collectors.toSet()), reminded);

            // Both replicas claimed some: their logged claims (one update per reminder) make 100 together.
            int first = claims(mainLog, mainLogFrom);
            int second = claims(replicaLog, replicaLogFrom);
            log("reminders claimed per replica: " + first + " and " + second + "; the last sent "
                    + Duration.between(due, last).toMillis() + " ms after they came due");
            assertEquals(APPOINTMENTS, first + second, "claims logged: " + first + " + " + second);
            assertTrue(first > 0 && second > 0, "claims per replica: " + first + " and " + second);
        } finally {
            try {
                denyWhatAwaitsReview();
            } finally {
                if (replica != null) {
                    platform.platform().stopReplica(replica);
                }
                platform.platform().restart(PlatformService.REQUESTS, Map.of());
            }
        }
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

    /** A request created by the partner, its consultation requested in the console and booked with the link's token. */
    private Booked book(String memberId, Instant start) throws IOException, InterruptedException {
        String requestId = expect(201, call("POST", "/v1/requests", key(), Map.of("memberId", memberId, "caseNotes", "Needs a follow-up on blood pressure (reminders run)",
                "items", List.of(Map.of("drugId", requestDrug, "dosage", "0.25 mg"))))).json().path("requestId").asText();
        String itemId = expect(200, call("GET", "/v1/requests/" + requestId, key(), null)).json().at("/lineItems/0/itemId").asText();
        created.add(new String[] {requestId, itemId});
        String url = expect(200, call("POST", "/ops/v1/requests/" + requestId + "/items/" + itemId + "/request-consultation", ops(),
                Map.of("prescriberId", prescriberId))).json().at("/booking/bookingUrl").asText();
        String token = url.substring(url.lastIndexOf('/') + 1);
        String appointmentId = expect(201, call("POST", "/ops/v1/bookings/" + token + "/appointment", ops(),
                Map.of("startTime", start.toString(), "durationMinutes", DURATION_MINUTES, "timezone", ZONE)))
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

    private static void log(String line) {
        LOG.log(System.Logger.Level.INFO, "AppointmentRemindersReplicasIT: " + line);
    }

    // ---- HTTP -----------------------------------------------------------------------------------

    private Map<String, String> ops() {
        return Map.of("x-ops-key", opsKey);
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

    /** Applies {@code step} to every input on {@link #CLIENTS} threads; the results in input order. */
    private static <T, R> List<R> parallel(List<T> inputs, Parallel.Step<T, R> step) throws Exception {
        return Parallel.map(CLIENTS, inputs, step);
    }
}
