package com.telemed.e2e;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.telemed.e2e.WebhookReceiver.Received;
import com.telemed.testkit.concurrent.Parallel;
import com.telemed.testkit.http.JsonCalls;
import com.telemed.testkit.e2e.RunningPlatform;
import com.telemed.testkit.infra.Infrastructure;
import com.telemed.testkit.infra.PostgresServer;
import com.telemed.testkit.kafka.TopicReader;
import com.telemed.testkit.platform.Platform;
import com.telemed.testkit.platform.PlatformService;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpTimeoutException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue #13, "Faults": 1,000 review decisions over several partners through the gateway while
 * requests-service, webhook-service and Kafka are each killed with SIGKILL and started again in
 * turn, the decisions still flowing at every kill. A decision answered 5xx, timed out or refused
 * at the connection is retried by its client until it has a definitive answer; a retry answered
 * {@code 400 Item status is '<intended>', expected 'pending' or 'call_requested'} was applied by
 * an earlier attempt. Afterwards:
 * <ul>
 *   <li>every item is exactly its intended decision (read as the partner): one decision in its
 *       history, one prescription record per approval, none per denial;</li>
 *   <li>{@code care.events} holds, per request, its item event then its aggregate event and no
 *       other decision (duplicates of one envelope counted, they are allowed);</li>
 *   <li>every distinct event on the topic reached its own partner's receiver at least once, with a
 *       valid signature (duplicate POSTs counted);</li>
 *   <li>requests-service's database has no half-written request (no request without its item, no
 *       approval without its record, no item without its one decision entry) and an empty outbox;
 *       webhook-service's has every delivery delivered.</li>
 * </ul>
 * The figures (decisions, retries, events, duplicates, time to drain after the last restart) go
 * to the log, as the other measured tests' do.
 *
 * <p>It runs on the platform the test JVM shares ({@link RunningPlatform}), as the other restart
 * tests do: the end-to-end tests run one at a time, and every service and the broker are running
 * and ready again when it ends. What it checks is its own partners' share of the platform: their
 * records on care.events, their rows in requests-service's and webhook-service's databases (the
 * outbox, which any partner's change fills, must be empty in all).
 */
@ExtendWith(RunningPlatform.class)
class ChaosIT {

    private static final System.Logger LOG = System.getLogger(ChaosIT.class.getName());
    private static final ObjectMapper JSON = new ObjectMapper();

    private static final int PARTNERS = 4;
    private static final int REQUESTS_PER_PARTNER = 250;
    private static final int DECISIONS = PARTNERS * REQUESTS_PER_PARTNER;
    private static final int MEMBERS_PER_PARTNER = 10;
    /** Set-up is not under test: more clients make the 2,000 set-up calls (create, claim) quicker. */
    private static final int SETUP_CLIENTS = 6;
    private static final int DECISION_CLIENTS = 4;
    /**
     * The decision run is paced so that it outlasts the three kills and restarts (a service's JVM
     * takes 10-20 s to be ready again on a loaded 2-core machine): unpaced, 1,000 decisions are
     * over before the second kill.
     */
    private static final int DECISIONS_PER_SECOND = 20;
    /** The first kill comes after this many decisions; each later one this many after the previous restart. */
    private static final int FIRST_KILL_AFTER = 100;
    private static final int NEXT_KILL_AFTER = 150;
    /**
     * The last decisions wait until the last kill is about to happen, so that decisions are still
     * flowing then however long the restarts before it took on a loaded machine.
     */
    private static final int HELD_FOR_LAST_KILL = 100;
    /** Which items are approved (the rest denied) and the order they are decided in. */
    private static final long SEED = 13;
    private static final Duration RETRY_INTERVAL = Duration.ofMillis(250);
    /** Beyond the gateway's 30 s upstream timeout: the gateway answers 504 first. */
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(40);
    private static final Duration DECISION_DEADLINE = Duration.ofMinutes(3);
    private static final Duration DRAIN_TIMEOUT = Duration.ofMinutes(4);
    private static final Map<String, Object> PRESCRIPTION = Map.of("quantity", 30, "daysSupply", 30,
            "directions", "One tablet daily", "refills", 1, "dispenseAsWritten", false);

    private enum Decision {
        APPROVE("approve", "approved", "item.approved", "request.all_approved", "all_approved"),
        DENY("deny", "denied", "item.denied", "request.all_denied", "all_denied");

        final String path;
        final String status;
        final String itemEvent;
        final String aggregateEvent;
        final String aggregateStatus;

        Decision(String path, String status, String itemEvent, String aggregateEvent, String aggregateStatus) {
            this.path = path;
            this.status = status;
            this.itemEvent = itemEvent;
            this.aggregateEvent = aggregateEvent;
            this.aggregateStatus = aggregateStatus;
        }

        /** The console's answer to deciding an item this decision already decided (requests-service, Review). */
        String alreadyDecided() {
            return "Item status is '" + status + "', expected 'pending' or 'call_requested'";
        }
    }

    private enum Outcome { APPLIED, APPLIED_ON_RETRY, APPLIED_BY_EARLIER_ATTEMPT, UNEXPECTED }

    private record Partner(String id, String apiKey, String secret, WebhookReceiver receiver) {
    }

    /** One request with its one item, and what is decided on it. */
    private static final class Case {
        final Partner partner;
        final String requestId;
        final String itemId;
        final Decision decision;
        final AtomicInteger attempts = new AtomicInteger();
        final List<String> retryReasons = Collections.synchronizedList(new ArrayList<>());
        volatile Outcome outcome;
        volatile String answer;

        Case(Partner partner, String requestId, String itemId, Decision decision) {
            this.partner = partner;
            this.requestId = requestId;
            this.itemId = itemId;
            this.decision = decision;
        }
    }

    /** One kill and restart, as the chaos thread did it. */
    private record Kill(String target, int decidedAtKill, int inFlightAtKill, int exitCode, long killedNanos,
                        long readyNanos) {
    }

    private final JsonCalls calls = new JsonCalls(CALL_TIMEOUT);
    private final AtomicInteger decided = new AtomicInteger();
    private final AtomicInteger inFlight = new AtomicInteger();
    private URI gateway;
    private String opsKey;
    private String prescriberId;
    /** Wall clock and nanoTime read together: arrival times ({@link Received#arrivedNanos}) as instants. */
    private final Instant wallBase = Instant.now();
    private final long nanoBase = System.nanoTime();

    @Test
    void decisionsSurviveKilledServicesAndBroker(RunningPlatform.Handle shared) throws Exception {
        long runStart = System.nanoTime();
        opsKey = shared.opsKey();
        Infrastructure infrastructure = shared.infrastructure();
        Platform platform = shared.platform();
        List<WebhookReceiver> receivers = new ArrayList<>();
        try {
            gateway = platform.url(PlatformService.GATEWAY);
            long started = System.nanoTime();

            List<Case> cases = setUp(receivers);
            long setUp = System.nanoTime();
            String ours = cases.stream().map(c -> "'" + c.partner.id() + "'").distinct().sorted()
                    .collect(Collectors.joining(", ", "partner_id IN (", ")"));

            List<Kill> kills = new ArrayList<>();
            long decisionsStart = System.nanoTime();
            long decisionsEnd = decide(cases, platform, infrastructure, kills);
            long lastRestart = kills.get(kills.size() - 1).readyNanos();

            PostgresServer postgres = infrastructure.postgres();
            String requestsDb = postgres.jdbcUrl(PlatformService.REQUESTS.database());
            String webhookDb = postgres.jdbcUrl(PlatformService.WEBHOOK.database());
            await("requests-service's outbox published").atMost(DRAIN_TIMEOUT).pollInterval(Duration.ofMillis(500))
                    .until(() -> count(postgres, requestsDb, "SELECT count(*) FROM outbox_events") == 0);
            await("webhook-service's deliveries all delivered").atMost(DRAIN_TIMEOUT).pollInterval(Duration.ofMillis(500))
                    .until(() -> count(postgres, webhookDb, "SELECT count(*) FROM deliveries WHERE " + ours) >= 2L * DECISIONS
                            && count(postgres, webhookDb, "SELECT count(*) FROM deliveries WHERE status <> 'delivered' AND " + ours) == 0);
            long drained = System.nanoTime();

            // (b) care.events, read from the beginning to its end now that nothing is left to publish: the
            // records of this test's partners.
            Set<String> partnerIds = cases.stream().map(c -> c.partner.id()).collect(Collectors.toSet());
            List<ConsumerRecord<String, String>> records =
                    TopicReader.readToEnd(infrastructure.kafka().bootstrapServers(), "care.events", Duration.ofSeconds(60))
                            .stream().filter(record -> partnerIds.contains(TopicReader.json(record.value()).path("partnerId").asText()))
                            .toList();
            List<String> problems = new ArrayList<>();
            Map<String, JsonNode> distinctEvents = new LinkedHashMap<>();
            int topicDuplicates = checkTopic(cases, records, distinctEvents, problems);

            // (c) every distinct event at its partner's receiver, signed.
            Map<String, Partner> partnersById = new LinkedHashMap<>();
            cases.forEach(c -> partnersById.put(c.partner.id(), c.partner));
            Deliveries deliveries = checkDeliveries(partnersById, distinctEvents, problems);

            // (a) every item as decided, read as its partner.
            checkRequests(cases, problems);

            // (d) nothing half written.
            Map<String, Long> halfWritten = halfWritten(postgres, requestsDb, webhookDb, ours);
            Map<String, Long> totals = totals(postgres, requestsDb, webhookDb, ours);

            Map<Outcome, Long> outcomes = cases.stream().collect(Collectors.groupingBy(c -> c.outcome, TreeMap::new,
                    Collectors.counting()));
            Map<String, Long> retryReasons = cases.stream().flatMap(c -> c.retryReasons.stream())
                    .collect(Collectors.groupingBy(reason -> reason, TreeMap::new, Collectors.counting()));
            int attempts = cases.stream().mapToInt(c -> c.attempts.get()).sum();
            long approvals = cases.stream().filter(c -> c.decision == Decision.APPROVE).count();
            String killLine = kills.stream().map(kill -> kill.target() + " killed (exit " + kill.exitCode() + ") after "
                    + kill.decidedAtKill() + " decisions with " + kill.inFlightAtKill() + " in flight, at "
                    + seconds(decisionsStart, kill.killedNanos()) + " s, ready again " + millis(kill.killedNanos(), kill.readyNanos())
                    + " ms later").collect(Collectors.joining("; "));
            log("Chaos test, platform: started in " + seconds(runStart, started) + " s; set-up (" + PARTNERS + " partners, "
                    + DECISIONS + " requests created and claimed through the gateway) " + seconds(started, setUp) + " s");
            log("Chaos test, decisions: " + DECISIONS + " (" + approvals + " approve, " + (DECISIONS - approvals) + " deny) by "
                    + DECISION_CLIENTS + " clients at " + DECISIONS_PER_SECOND + "/s in " + seconds(decisionsStart, decisionsEnd)
                    + " s; attempts " + attempts + ", retries " + (attempts - DECISIONS) + " " + retryReasons
                    + "; outcomes " + outcomes);
            log("Chaos test, kills: " + killLine);
            log("Chaos test, care.events: " + records.size() + " records, " + distinctEvents.size() + " distinct events, "
                    + topicDuplicates + " duplicates");
            log("Chaos test, webhooks: " + deliveries.posts + " POSTs, " + deliveries.distinctDelivered + " distinct events delivered, "
                    + deliveries.duplicates + " duplicates delivered; webhook-service's log: " + totals.get("delivery attempts")
                    + " attempts over " + totals.get("deliveries") + " deliveries, " + totals.get("attempts not answered 200")
                    + " not answered 200; longest pause between POSTs " + Duration.ofNanos(deliveries.longestPauseNanos).toMillis()
                    + " ms, from " + seconds(decisionsStart, deliveries.longestPauseFrom) + " s into the decision run");
            log("Chaos test, drain: every event delivered " + millis(lastRestart, deliveries.lastFirstArrival)
                    + " ms after the last restart (last POST of all " + millis(lastRestart, deliveries.lastArrival)
                    + " ms after it; decisions ended " + millis(lastRestart, decisionsEnd) + " ms after it; outbox and deliveries seen drained "
                    + millis(lastRestart, drained) + " ms after it); total run " + seconds(runStart, System.nanoTime()) + " s");
            log("Chaos test, rows: " + totals + "; half-written: " + halfWritten + "; problems found: " + problems.size());

            assertEquals(3, kills.size(), "kills");
            for (Kill kill : kills) {
                assertEquals(137, kill.exitCode(), kill.target() + " died of SIGKILL");
                assertTrue(kill.decidedAtKill() < DECISIONS && kill.inFlightAtKill() > 0,
                        "decisions were flowing when " + kill.target() + " was killed: " + killLine);
            }
            assertTrue(problems.isEmpty(), problems.size() + " problems, the first: "
                    + problems.subList(0, Math.min(20, problems.size())));
            assertEquals(List.of(), cases.stream().filter(c -> c.outcome == Outcome.UNEXPECTED)
                    .map(c -> c.requestId + " " + c.decision + " after " + c.attempts.get() + " attempt(s): " + c.answer).toList(),
                    "decisions with an unexpected answer");
            for (var rows : halfWritten.entrySet()) {
                assertEquals(0, rows.getValue(), rows.getKey());
            }
            assertEquals(DECISIONS, totals.get("requests"), "requests");
            assertEquals(DECISIONS, totals.get("line items"), "line items");
            assertEquals(approvals, totals.get("prescription records"), "prescription records: one per approval");
            assertEquals(DECISIONS, totals.get("decision history entries"), "decision history entries: one per item");
            assertEquals(2 * DECISIONS, distinctEvents.size(), "distinct events on care.events: an item and an aggregate event per request");
            assertEquals(distinctEvents.size(), totals.get("deliveries"), "webhook-service's deliveries: one per distinct event");
            assertEquals(distinctEvents.size(), deliveries.distinctDelivered, "distinct events delivered");
        } finally {
            receivers.forEach(WebhookReceiver::close);
            // The platform is the next tests': whatever failed here, what was killed runs again.
            infrastructure.ensureRunning();
            for (PlatformService service : List.of(PlatformService.REQUESTS, PlatformService.WEBHOOK)) {
                if (platform.pid(service) < 0) {
                    platform.startAgain(service);
                }
            }
        }
    }

    // ---- set-up -------------------------------------------------------------------------------

    /** Partners with their receivers, a drug, a prescriber, members, and the claimed requests, in decision order. */
    private List<Case> setUp(List<WebhookReceiver> receivers) throws Exception {
        String drugId = "chaos-" + UUID.randomUUID().toString().substring(0, 8);
        expect(200, call("PUT", "/ops/v1/drugs/" + drugId, ops(), """
                {"name": "Sildenafil Chaos", "classification": "non-controlled",
                 "skus": [{"label": "50 mg", "active": true}], "pharmacy": {"id": "sandbox", "method": "none"}}"""));
        String prescriberId = expect(201, call("POST", "/ops/v1/prescribers", ops(),
                Map.of("name", "Dr Chaos", "email", "chaos." + UUID.randomUUID() + "@clinic.example")))
                .json().at("/prescriber/id").asText();
        List<Partner> partners = new ArrayList<>();
        for (int i = 0; i < PARTNERS; i++) {
            WebhookReceiver receiver = new WebhookReceiver((post, attempt) -> 200);
            receivers.add(receiver);
            JsonNode created = expect(201, call("POST", "/ops/v1/partners", ops(),
                    Map.of("name", "Chaos " + i + " " + UUID.randomUUID()))).json();
            String partnerId = created.at("/partner/id").asText();
            String secret = expect(200, call("PUT", "/ops/v1/partners/" + partnerId + "/webhook", ops(),
                    Map.of("url", receiver.url()))).json().path("secret").asText();
            // Deferred: the decisions are what this test follows; no transmission adds to an approved item's history.
            expect(200, call("PUT", "/ops/v1/partners/" + partnerId + "/fulfilment", ops(), Map.of("mode", "deferred")));
            partners.add(new Partner(partnerId, created.path("apiKey").asText(), secret, receiver));
        }
        List<String[]> members = parallel(partnersTimes(partners, MEMBERS_PER_PARTNER), partner -> new String[] {partner.id(),
                expect(201, call("POST", "/v1/members", key(partner), """
                        {"firstName": "Mary", "lastName": "Chaos", "email": "mary.%s@example.com",
                         "dateOfBirth": "1921-04-09", "state": "VA",
                         "address": {"street1": "1 Langley Rd", "city": "Hampton", "state": "VA", "zipCode": "23665"}}"""
                        .formatted(UUID.randomUUID()))).json().at("/member/id").asText()});
        Map<String, List<String>> membersOf = members.stream().collect(Collectors.groupingBy(m -> m[0],
                Collectors.mapping(m -> m[1], Collectors.toList())));

        // Decided up front, per item: about 3 in 5 approved, the rest denied.
        Random seeded = new Random(SEED);
        List<Integer> numbers = new ArrayList<>();
        List<Decision> decisions = new ArrayList<>();
        for (int n = 0; n < DECISIONS; n++) {
            numbers.add(n);
            decisions.add(seeded.nextInt(5) < 3 ? Decision.APPROVE : Decision.DENY);
        }
        List<Case> cases = parallel(numbers, n -> {
            Partner partner = partners.get(n % PARTNERS);
            List<String> ofPartner = membersOf.get(partner.id());
            String requestId = expect(201, call("POST", "/v1/requests", key(partner), Map.of(
                    "memberId", ofPartner.get(n % ofPartner.size()), "caseNotes", "chaos " + n,
                    "items", List.of(Map.of("drugId", drugId, "dosage", "50 mg"))))).json().path("requestId").asText();
            JsonNode claimed = expect(200, call("POST", "/ops/v1/requests/" + requestId + "/claim", ops(),
                    Map.of("prescriberId", prescriberId))).json();
            return new Case(partner, requestId, claimed.at("/request/lineItems/0/itemId").asText(), decisions.get(n));
        });
        // Decided in a mixed order: partners, approvals and denials interleaved.
        Collections.shuffle(cases, seeded);
        this.prescriberId = prescriberId;
        return cases;
    }

    private static List<Partner> partnersTimes(List<Partner> partners, int times) {
        List<Partner> all = new ArrayList<>();
        for (int i = 0; i < times; i++) {
            all.addAll(partners);
        }
        return all;
    }

    // ---- the decision run and the chaos --------------------------------------------------------

    /**
     * Runs the decisions on {@link #DECISION_CLIENTS} threads, paced, while this thread kills and
     * restarts requests-service, webhook-service and Kafka in turn; returns when every decision has
     * its answer (nanoTime).
     */
    private long decide(List<Case> cases, Platform platform, Infrastructure infrastructure, List<Kill> kills) throws Exception {
        ConcurrentLinkedQueue<Case> queue = new ConcurrentLinkedQueue<>(cases);
        AtomicInteger taken = new AtomicInteger();
        CountDownLatch lastKill = new CountDownLatch(1);
        Semaphore pace = new Semaphore(0);
        ScheduledExecutorService pacer = Executors.newSingleThreadScheduledExecutor();
        ExecutorService clients = Executors.newFixedThreadPool(DECISION_CLIENTS);
        try {
            // At most one permit per client banked: while requests-service is down the clients
            // wait on retries, and must not come back with a burst.
            pacer.scheduleAtFixedRate(() -> {
                if (pace.availablePermits() < DECISION_CLIENTS) {
                    pace.release();
                }
            }, 0, 1000 / DECISIONS_PER_SECOND, TimeUnit.MILLISECONDS);
            List<Future<?>> running = new ArrayList<>();
            for (int i = 0; i < DECISION_CLIENTS; i++) {
                running.add(clients.submit((Callable<Void>) () -> {
                    for (Case c = queue.poll(); c != null; c = queue.poll()) {
                        if (taken.incrementAndGet() > DECISIONS - HELD_FOR_LAST_KILL
                                && !lastKill.await(DECISION_DEADLINE.toMillis(), TimeUnit.MILLISECONDS)) {
                            throw new AssertionError("the last kill never came");
                        }
                        pace.acquire();
                        decide(c);
                    }
                    return null;
                }));
            }

            kills.add(killAndRestart("requests-service", FIRST_KILL_AFTER, () -> { },
                    () -> platform.kill(PlatformService.REQUESTS), () -> platform.startAgain(PlatformService.REQUESTS)));
            kills.add(killAndRestart("webhook-service", decided.get() + NEXT_KILL_AFTER, () -> { },
                    () -> platform.kill(PlatformService.WEBHOOK), () -> platform.startAgain(PlatformService.WEBHOOK)));
            kills.add(killAndRestart("Kafka", Math.min(decided.get() + NEXT_KILL_AFTER, DECISIONS - HELD_FOR_LAST_KILL),
                    lastKill::countDown, () -> infrastructure.embeddedKafka().kill(), () -> infrastructure.embeddedKafka().start()));

            for (Future<?> client : running) {
                try {
                    client.get(DECISION_DEADLINE.toMillis() * 2, TimeUnit.MILLISECONDS);
                } catch (ExecutionException e) {
                    throw new AssertionError("a decision client failed", e.getCause());
                }
            }
            return System.nanoTime();
        } finally {
            pacer.shutdownNow();
            clients.shutdownNow();
        }
    }

    @FunctionalInterface
    private interface KillStep {
        int kill();
    }

    /**
     * Waits until {@code threshold} decisions are answered, runs {@code before} (it may let held
     * decisions go), waits until one is in flight, kills the target and starts it again.
     */
    private Kill killAndRestart(String target, int threshold, Runnable before, KillStep kill, Runnable restart) {
        await(threshold + " decisions answered before killing " + target).atMost(DECISION_DEADLINE)
                .pollInterval(Duration.ofMillis(20)).until(() -> decided.get() >= threshold);
        before.run();
        await("a decision in flight to kill " + target + " under").atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(1)).until(() -> inFlight.get() > 0);
        int decidedAtKill = decided.get();
        int inFlightAtKill = inFlight.get();
        long killed = System.nanoTime();
        int exitCode = kill.kill();
        restart.run();
        Kill done = new Kill(target, decidedAtKill, inFlightAtKill, exitCode, killed, System.nanoTime());
        log("Chaos test, " + target + " killed after " + decidedAtKill + " decisions (" + inFlightAtKill
                + " in flight), ready again after " + millis(killed, done.readyNanos()) + " ms");
        return done;
    }

    /** One decision, retried until it has a definitive answer. */
    private void decide(Case c) {
        await("decision on " + c.requestId).atMost(DECISION_DEADLINE).pollInSameThread()
                .pollDelay(Duration.ZERO).pollInterval(RETRY_INTERVAL).until(() -> attempt(c));
        decided.incrementAndGet();
    }

    /** One attempt: true when the answer is definitive (2xx or 4xx), false when it must be retried. */
    private boolean attempt(Case c) throws InterruptedException {
        int attempt = c.attempts.incrementAndGet();
        Object body = c.decision == Decision.APPROVE
                ? Map.of("prescriberId", prescriberId, "prescription", PRESCRIPTION)
                : Map.of("prescriberId", prescriberId, "reason", "chaos");
        JsonCalls.Answer answer;
        inFlight.incrementAndGet();
        try {
            answer = call("POST", "/ops/v1/requests/" + c.requestId + "/items/" + c.itemId + "/" + c.decision.path, ops(), body);
        } catch (HttpTimeoutException e) {
            c.retryReasons.add("timeout");
            return false;
        } catch (IOException e) {
            c.retryReasons.add(e.getClass().getSimpleName());
            return false;
        } finally {
            inFlight.decrementAndGet();
        }
        if (answer.status() >= 500) {
            c.retryReasons.add(String.valueOf(answer.status()));
            return false;
        }
        c.answer = answer.status() + " " + answer.json();
        if (answer.status() == 200 && c.decision.status.equals(answer.json().at("/request/lineItems/0/status").asText())) {
            c.outcome = attempt == 1 ? Outcome.APPLIED : Outcome.APPLIED_ON_RETRY;
        } else if (answer.status() == 400 && attempt > 1 && c.decision.alreadyDecided().equals(answer.error())) {
            c.outcome = Outcome.APPLIED_BY_EARLIER_ATTEMPT;
        } else {
            c.outcome = Outcome.UNEXPECTED;
        }
        return true;
    }

    // ---- checks ---------------------------------------------------------------------------------

    /**
     * Per request, its envelopes in topic order: distinct (by envelope id) they are exactly its item
     * event then its aggregate event, for the intended decision, of its partner. Returns the
     * duplicates (an envelope id seen again) and fills {@code distinct} (envelope id -> envelope).
     */
    private static int checkTopic(List<Case> cases, List<ConsumerRecord<String, String>> records,
                                  Map<String, JsonNode> distinct, List<String> problems) {
        Map<String, List<ConsumerRecord<String, String>>> byRequest = records.stream()
                .collect(Collectors.groupingBy(record -> String.valueOf(record.key()), LinkedHashMap::new, Collectors.toList()));
        Set<String> ours = cases.stream().map(c -> c.requestId).collect(Collectors.toSet());
        byRequest.keySet().stream().filter(key -> !ours.contains(key))
                .forEach(key -> problems.add("care.events: records keyed " + key + ", not one of the test's requests"));
        int duplicates = 0;
        for (Case c : cases) {
            List<ConsumerRecord<String, String>> own = byRequest.getOrDefault(c.requestId, List.of());
            Map<String, String> values = new LinkedHashMap<>();
            List<JsonNode> envelopes = new ArrayList<>();
            for (ConsumerRecord<String, String> record : own) {
                JsonNode envelope = TopicReader.json(record.value());
                String id = envelope.path("id").asText();
                String before = values.putIfAbsent(id, record.value());
                if (before == null) {
                    envelopes.add(envelope);
                    distinct.put(id, envelope);
                } else {
                    duplicates++;
                    if (!before.equals(record.value())) {
                        problems.add("care.events: envelope " + id + " published twice with different contents");
                    }
                }
            }
            List<String> types = envelopes.stream().map(e -> e.path("type").asText()).toList();
            if (!types.equals(List.of(c.decision.itemEvent, c.decision.aggregateEvent))) {
                problems.add("care.events of " + c.requestId + " (" + c.decision + "): " + types);
                continue;
            }
            JsonNode item = envelopes.get(0).path("webhook");
            JsonNode aggregate = envelopes.get(1).path("webhook");
            for (JsonNode envelope : envelopes) {
                if (!c.partner.id().equals(envelope.path("partnerId").asText())) {
                    problems.add("care.events: " + envelope.path("id").asText() + " of another partner");
                }
            }
            if (!(c.decision.itemEvent.equals(item.path("event").asText()) && c.requestId.equals(item.path("requestId").asText())
                    && c.itemId.equals(item.path("itemId").asText()) && c.decision.status.equals(item.path("status").asText()))) {
                problems.add("care.events: item event of " + c.requestId + ": " + item);
            }
            if (!(c.decision.aggregateEvent.equals(aggregate.path("event").asText())
                    && c.requestId.equals(aggregate.path("requestId").asText())
                    && c.decision.aggregateStatus.equals(aggregate.path("status").asText()))) {
                problems.add("care.events: aggregate event of " + c.requestId + ": " + aggregate);
            }
        }
        return duplicates;
    }

    private static final class Deliveries {
        int posts;
        int distinctDelivered;
        int duplicates;
        long lastFirstArrival;
        long lastArrival;
        /** The longest time no POST arrived at any receiver, and when it began (nanoTime). */
        long longestPauseNanos;
        long longestPauseFrom;
    }

    /**
     * Every distinct event's webhook payload at its own partner's receiver (matched by JSON
     * equality of the body), at least once, every POST signed with the partner's secret and
     * timestamped within five minutes of its arrival, repeats carrying the same X-Webhook-Id and
     * bytes; no POST that is no event of the topic.
     */
    private Deliveries checkDeliveries(Map<String, Partner> partners, Map<String, JsonNode> events, List<String> problems)
            throws Exception {
        Deliveries result = new Deliveries();
        Map<String, Map<JsonNode, List<Received>>> byPartner = new HashMap<>();
        for (Partner partner : partners.values()) {
            List<Received> received = partner.receiver().received();
            result.posts += received.size();
            Map<JsonNode, List<Received>> byBody = new HashMap<>();
            for (Received post : received) {
                byBody.computeIfAbsent(post.json(), body -> new ArrayList<>()).add(post);
                result.lastArrival = Math.max(result.lastArrival, post.arrivedNanos());
                try {
                    WebhookReceiver.assertSigned(post, partner.secret(), arrival(post));
                } catch (AssertionError e) {
                    problems.add("webhook to " + partner.id() + " not validly signed: " + e.getMessage());
                }
            }
            byPartner.put(partner.id(), byBody);
        }
        List<Long> arrivals = partners.values().stream().flatMap(partner -> partner.receiver().received().stream())
                .map(Received::arrivedNanos).sorted().toList();
        for (int i = 1; i < arrivals.size(); i++) {
            if (arrivals.get(i) - arrivals.get(i - 1) > result.longestPauseNanos) {
                result.longestPauseNanos = arrivals.get(i) - arrivals.get(i - 1);
                result.longestPauseFrom = arrivals.get(i - 1);
            }
        }
        int matched = 0;
        for (JsonNode envelope : events.values()) {
            Map<JsonNode, List<Received>> byBody = byPartner.get(envelope.path("partnerId").asText());
            List<Received> posts = byBody == null ? List.of() : byBody.getOrDefault(envelope.path("webhook"), List.of());
            if (posts.isEmpty()) {
                problems.add("never delivered to its partner: " + envelope.path("type").asText() + " " + envelope.path("id").asText());
                continue;
            }
            matched += posts.size();
            result.distinctDelivered++;
            result.duplicates += posts.size() - 1;
            result.lastFirstArrival = Math.max(result.lastFirstArrival, posts.get(0).arrivedNanos());
            Received first = posts.get(0);
            for (Received post : posts) {
                if (!first.headers().get("x-webhook-id").equals(post.headers().get("x-webhook-id"))
                        || !java.util.Arrays.equals(first.body(), post.body())) {
                    problems.add("one event delivered as different deliveries: " + envelope.path("id").asText());
                }
            }
        }
        if (matched != result.posts) {
            problems.add((result.posts - matched) + " POSTs match no event on care.events");
        }
        return result;
    }

    /** {@code GET /v1/requests/:id} as the partner: the intended decision, once, with its record. */
    private void checkRequests(List<Case> cases, List<String> problems) throws Exception {
        List<String> found = parallel(cases, c -> {
            JsonCalls.Answer answer = call("GET", "/v1/requests/" + c.requestId, key(c.partner), null);
            JsonNode detail = answer.json();
            List<String> wrong = new ArrayList<>();
            if (answer.status() != 200) {
                return c.requestId + ": " + answer.status() + " " + detail;
            }
            JsonNode item = detail.path("lineItems").path(0);
            JsonNode records = detail.path("prescriptionRecords");
            if (!c.decision.status.equals(detail.path("status").asText())) {
                wrong.add("status " + detail.path("status").asText());
            }
            if (detail.path("lineItems").size() != 1 || !c.itemId.equals(item.path("itemId").asText())
                    || !c.decision.status.equals(item.path("status").asText())) {
                wrong.add("line items " + detail.path("lineItems"));
            }
            if (!actions(item.path("history")).equals(List.of("created", c.decision.status))) {
                wrong.add("item history " + actions(item.path("history")));
            }
            if (!actions(detail.path("history")).equals(List.of("created", "claimed", c.decision.status))) {
                wrong.add("history " + actions(detail.path("history")));
            }
            if (c.decision == Decision.APPROVE) {
                if (records.size() != 1 || !c.itemId.equals(records.path(0).path("lineItemId").asText())
                        || !"issued".equals(records.path(0).path("status").asText())) {
                    wrong.add("prescription records " + records);
                }
            } else if (records.size() != 0) {
                wrong.add("prescription records of a denial " + records);
            }
            return wrong.isEmpty() ? null : c.requestId + " (" + c.decision + ", " + c.outcome + "): " + wrong;
        });
        found.stream().filter(problem -> problem != null).forEach(problems::add);
    }

    private static List<String> actions(JsonNode history) {
        List<String> actions = new ArrayList<>();
        history.forEach(entry -> actions.add(entry.path("action").asText()));
        return actions;
    }

    /**
     * Rows that only a half-applied change could leave, straight from the services' databases, of the
     * test's partners ({@code ours}: a condition on {@code partner_id}, which every row of these tables
     * carries); each must be 0. The outbox is everyone's and must be empty.
     */
    private static Map<String, Long> halfWritten(PostgresServer postgres, String requestsDb, String webhookDb, String ours)
            throws SQLException {
        Map<String, Long> counts = new LinkedHashMap<>();
        Map<String, String> requests = new LinkedHashMap<>();
        requests.put("requests without a line item",
                "SELECT count(*) FROM requests r WHERE r." + ours + " AND NOT EXISTS (SELECT 1 FROM line_items i WHERE i.request_id = r.id)");
        requests.put("requests whose item count is not their items'",
                "SELECT count(*) FROM requests r WHERE r." + ours
                        + " AND r.item_count <> (SELECT count(*) FROM line_items i WHERE i.request_id = r.id)");
        requests.put("requests whose stored status is not their item's",
                "SELECT count(*) FROM requests r JOIN line_items i ON i.request_id = r.id WHERE r." + ours + " AND r.status <> i.status");
        requests.put("items not decided", "SELECT count(*) FROM line_items WHERE " + ours + " AND status NOT IN ('approved', 'denied')");
        requests.put("decided items without their prescriber",
                "SELECT count(*) FROM line_items WHERE " + ours + " AND prescriber_id IS NULL");
        requests.put("approved items without exactly one prescription record",
                "SELECT count(*) FROM line_items i WHERE i." + ours + " AND i.status = 'approved'"
                        + " AND (SELECT count(*) FROM prescription_records p WHERE p.line_item_id = i.id) <> 1");
        requests.put("prescription records of items not approved",
                "SELECT count(*) FROM prescription_records p LEFT JOIN line_items i ON i.id = p.line_item_id"
                        + " WHERE p." + ours + " AND (i.id IS NULL OR i.status <> 'approved')");
        requests.put("items without exactly one decision in their history",
                "SELECT count(*) FROM line_items i WHERE i." + ours + " AND (SELECT count(*) FROM history_entries h"
                        + " WHERE h.item_id = i.id AND h.action IN ('approved', 'denied')) <> 1");
        requests.put("decision entries other than their item's status",
                "SELECT count(*) FROM history_entries h JOIN line_items i ON i.id = h.item_id"
                        + " WHERE i." + ours + " AND h.action IN ('approved', 'denied') AND h.action <> i.status");
        requests.put("outbox rows never published", "SELECT count(*) FROM outbox_events");
        for (var query : requests.entrySet()) {
            counts.put(query.getKey(), count(postgres, requestsDb, query.getValue()));
        }
        counts.put("deliveries not delivered",
                count(postgres, webhookDb, "SELECT count(*) FROM deliveries WHERE " + ours + " AND status <> 'delivered'"));
        counts.put("events dropped", count(postgres, webhookDb, "SELECT count(*) FROM dropped_events WHERE " + ours));
        return counts;
    }

    private static Map<String, Long> totals(PostgresServer postgres, String requestsDb, String webhookDb, String ours)
            throws SQLException {
        Map<String, Long> totals = new LinkedHashMap<>();
        totals.put("requests", count(postgres, requestsDb, "SELECT count(*) FROM requests WHERE " + ours));
        totals.put("line items", count(postgres, requestsDb, "SELECT count(*) FROM line_items WHERE " + ours));
        totals.put("prescription records", count(postgres, requestsDb, "SELECT count(*) FROM prescription_records WHERE " + ours));
        totals.put("decision history entries", count(postgres, requestsDb,
                "SELECT count(*) FROM history_entries h JOIN line_items i ON i.id = h.item_id WHERE i." + ours
                        + " AND h.action IN ('approved', 'denied')"));
        totals.put("deliveries", count(postgres, webhookDb, "SELECT count(*) FROM deliveries WHERE " + ours));
        totals.put("delivery attempts", count(postgres, webhookDb,
                "SELECT count(*) FROM delivery_attempts a JOIN deliveries d ON d.id = a.delivery_id WHERE d." + ours));
        totals.put("attempts not answered 200", count(postgres, webhookDb,
                "SELECT count(*) FROM delivery_attempts a JOIN deliveries d ON d.id = a.delivery_id WHERE d." + ours
                        + " AND a.http_status IS DISTINCT FROM 200"));
        return totals;
    }

    private static long count(PostgresServer postgres, String jdbcUrl, String query) throws SQLException {
        try (Connection connection = DriverManager.getConnection(jdbcUrl, postgres.username(), postgres.password());
             ResultSet rows = connection.createStatement().executeQuery(query)) {
            rows.next();
            return rows.getLong(1);
        }
    }

    // ---- HTTP -----------------------------------------------------------------------------------

    private Map<String, String> ops() {
        return Map.of("x-ops-key", opsKey);
    }

    private static Map<String, String> key(Partner partner) {
        return Map.of("x-api-key", partner.apiKey());
    }

    private JsonCalls.Answer call(String method, String path, Map<String, String> headers, Object body)
            throws IOException, InterruptedException {
        return calls.call(gateway, method, path, headers, body);
    }

    private static JsonCalls.Answer expect(int status, JsonCalls.Answer answer) {
        return JsonCalls.expect(status, answer);
    }

    /** Applies {@code step} to every input on {@link #SETUP_CLIENTS} threads; the results in input order. */
    private static <T, R> List<R> parallel(List<T> inputs, Parallel.Step<T, R> step) throws Exception {
        return Parallel.map(SETUP_CLIENTS, inputs, step);
    }

    // ---- figures --------------------------------------------------------------------------------

    private Instant arrival(Received post) {
        return wallBase.plusNanos(post.arrivedNanos() - nanoBase);
    }

    private static void log(String line) {
        LOG.log(System.Logger.Level.INFO, line);
    }

    private static long millis(long fromNanos, long toNanos) {
        return Duration.ofNanos(toNanos - fromNanos).toMillis();
    }

    private static String seconds(long fromNanos, long toNanos) {
        return String.format(java.util.Locale.ROOT, "%.1f", (toNanos - fromNanos) / 1e9);
    }
}
