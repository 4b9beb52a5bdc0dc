package com.telemed.e2e.fuzz;

import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.telemed.testkit.db.TableFingerprints;
import com.telemed.testkit.e2e.RunningPlatform;
import com.telemed.testkit.http.RawHttp;
import com.telemed.testkit.platform.PlatformService;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Sends one generated call and judges the answer. Every answer: a status below 500 (and no 1xx
 * or 3xx), an {@code X-Request-Id}, and JSON: a 4xx body is an object whose {@code error} is a
 * string or an array of issues ({@code code}, {@code path}, {@code message}); a 2xx body is JSON
 * unless the status is 204. A body over the 100 KB limit is never accepted (the gateway answers
 * 413; a 415 or 404 is a refusal too), nor an upload's over 11 MB. A refused call (4xx) writes
 * nothing (but what its endpoint's {@link Endpoint#keptWhenRefused} allows): the tables of the
 * database of the service that owns the endpoint are fingerprinted ({@link TableFingerprints})
 * before and after.
 *
 * <p>Besides: a call with a proxy's headers gets no answer that names the host they gave (no
 * proxy is trusted); a name field ({@link Endpoint#names}) with a line-breaking character is
 * never accepted; an upload is held to {@link UploadCheck} (the exact answer its body calls for,
 * and for a stored file its record, its writes and its download).
 */
public final class Oracle implements AutoCloseable {

    /** The gateway's JSON body limit (decisions.md: over 100 KB is 413). */
    static final int BODY_LIMIT = 102_400;

    private static final ObjectMapper JSON = jsonReader();

    private final RunningPlatform.Handle platform;
    private final Fixture fixture;
    private final RawHttp http;
    private final Map<PlatformService, TableFingerprints> fingerprints = new EnumMap<>(PlatformService.class);
    private final Stats stats = new Stats();

    public Oracle(RunningPlatform.Handle platform, Fixture fixture) {
        this.platform = platform;
        this.fixture = fixture;
        this.http = new RawHttp(platform.gateway(), Duration.ofSeconds(40));
    }

    /** Sends the call and throws {@link AssertionError} naming what is wrong with the answer. */
    public void check(Call call) {
        long entered = System.nanoTime();
        stats.between(entered);
        fixture.ready();
        stats.ready(System.nanoTime() - entered);
        RawHttp.Request request = call.request(fixture);
        TableFingerprints tables = fingerprints.computeIfAbsent(call.endpoint().owner(), this::connect);
        long began = System.nanoTime();
        TableFingerprints.Snapshot before = tables.take();
        long sent = System.nanoTime();
        RawHttp.Response response;
        try {
            response = http.send(request);
        } catch (IOException e) {
            throw failure(call, "no HTTP answer: " + e.getClass().getSimpleName() + " " + e.getMessage(), null);
        }
        long answered = System.nanoTime();
        TableFingerprints.Snapshot after = tables.take();
        stats.record(call, response.status(), sent - began + System.nanoTime() - answered, answered - sent, request.body());

        int status = response.status();
        if (status >= 500) {
            throw failure(call, "server error", response);
        }
        Optional<Endpoint> reached = Endpoints.at(call.endpoint().path(), call.method());
        boolean upload = reached.map(Endpoint::multipart).orElse(false);
        if (status < 200 || (status >= 300 && status < 400)) {
            throw failure(call, "unexpected status", response);
        }
        if (response.header("x-request-id").isEmpty()) {
            throw failure(call, "no X-Request-Id", response);
        }
        if (status >= 400) {
            Optional<String> wrong = errorBodyProblem(response);
            if (wrong.isPresent()) {
                throw failure(call, wrong.get(), response);
            }
            Set<String> kept = reached.map(Endpoint::keptWhenRefused).orElse(Set.of());
            List<String> written = before.changesTo(after).stream()
                    .filter(change -> !kept.contains(change.substring(0, change.indexOf(':')))).toList();
            if (!written.isEmpty()) {
                throw failure(call, "a refused call wrote to " + call.endpoint().owner().database() + ": " + written, response);
            }
        } else if (status != 204 && !answersWithoutBody(call, response)) {
            Optional<String> wrong = jsonProblem(response);
            if (wrong.isPresent()) {
                throw failure(call, "success with " + wrong.get(), response);
            }
        }
        byte[] body = request.body();
        int limit = upload ? Multipart.GATEWAY_LIMIT : BODY_LIMIT;
        if (body != null && body.length > limit && status / 100 == 2 && !call.method().equals("OPTIONS")) {
            throw failure(call, "a body of " + body.length + " bytes (over " + limit + ") was accepted", response);
        }
        if (!call.headers().forwarding().isEmpty()) {
            stats.forwarded++;
            if (namesForwardedHost(response)) {
                throw failure(call, "the answer names the host of a proxy header (" + BadInputs.FORWARDED_HOST
                        + "): no proxy is trusted", response);
            }
        }
        if (status / 100 == 2 && reached.isPresent()) {
            Optional<String> name = lineBreakingName(reached.get(), call.body());
            if (name.isPresent()) {
                throw failure(call, "a name with a line-breaking character was accepted: " + name.get(), response);
            }
        }
        if (call.body() instanceof Multipart multipart && call.endpoint().multipart()) {
            if (UploadCheck.onlyTheBodyIsOdd(call)) {
                stats.uploadsPinned++;
                long length = body == null ? 0 : body.length;
                Optional<String> wrong = UploadCheck.unexpected(multipart, length, response, readOrMissing(response.body()));
                if (wrong.isPresent()) {
                    throw failure(call, "an upload's answer is not the contract's: " + wrong.get(), response);
                }
            }
        }
        if (upload && status / 100 == 2) {
            stats.uploadsStored++;
            Optional<String> wrong = UploadCheck.stored(call, read(response.body()), before, after, http);
            if (wrong.isPresent()) {
                throw failure(call, wrong.get(), response);
            }
        }
        if (status / 100 == 2 && !call.method().equals("GET")) {
            // What the call reached, whichever endpoint it was aimed at: a DELETE sent to the path of
            // GET /v1/requests/{request} deletes the request as the DELETE endpoint does.
            long settling = System.nanoTime();
            reached.ifPresent(endpoint -> {
                fixture.usedUp(endpoint.invalidates());
                if (endpoint.waitsForDeliveries()) {
                    fixture.settleDeliveries();
                }
                if (endpoint.owner() == PlatformService.CATALOGUE) {
                    // A catalogue change reaches requests-service's catalogue copy in the background.
                    fixture.settleCatalogueCopy();
                }
            });
            stats.settled(System.nanoTime() - settling);
        }
        long left = System.nanoTime();
        if (call.endpoint().multipart()) {
            stats.uploadNanos += left - began;
        }
        stats.left(left);
    }

    /** OPTIONS (its answer is the Allow header) and HEAD may succeed with no body at all. */
    private static boolean answersWithoutBody(Call call, RawHttp.Response response) {
        return (call.method().equals("OPTIONS") || call.method().equals("HEAD")) && response.body().length == 0;
    }

    private TableFingerprints connect(PlatformService service) {
        var postgres = platform.infrastructure().postgres();
        TableFingerprints.Rules rules = new TableFingerprints.Rules();
        switch (service) {
            // The outbox relay deletes what it published: only inserts count. requests-service's survey tables
            // (surveys, survey_drugs, survey_tokens, survey_responses) have no background writer: only a successful
            // call writes them (a definition, a token, a response, a token used up, a response linked to a request),
            // so they are watched whole.
            // catalogue-service's relay too: a successful change's event may be deleted after requests-service applied it.
            case REQUESTS, MEMBERS, CATALOGUE -> rules.insertsOnly("outbox_events", "id");
            // Events of the fixture partner's decisions arrive as deliveries (dropped: it has no URL) in the background,
            // and are recorded as its events (issue #42), its sequence counter moving with them.
            case WEBHOOK -> {
                String others = "partner_id <> '" + fixture.partnerId() + "'";
                rules.where("deliveries", others).where("dropped_events", others)
                        .where("events", others).where("partner_event_counters", others)
                        .where("delivery_attempts", "delivery_id IN (SELECT id FROM deliveries WHERE " + others + ")");
            }
            case MESSAGING -> messagingRules(rules);
            // The ledger's consumers write these three in the background, from every partner's events
            // (the fixture's members and approvals among them); the only call that writes them, the
            // rebuild, rewrites them whole in one transaction.
            case BILLING -> rules.ignore("consumed_events").ignore("ledger_members").ignore("ledger_status_changes");
            default -> {
            }
        }
        return TableFingerprints.connect(postgres.jdbcUrl(service.database()), postgres.username(), postgres.password(), rules);
    }

    /**
     * messaging-service's background: the outbox relay and the mail relay, and the care.events
     * consumer (care.SystemMessages), which posts a system message into the conversation of a
     * decision's member and prescriber (the fixture's, after a successful decision call) in one
     * transaction with the event's id in consumed_events. That row's {@code xmin} names the
     * consumer's transaction, and with it the rows that transaction wrote.
     */
    private static void messagingRules(TableFingerprints.Rules rules) {
        String consumer = "(SELECT xmin FROM consumed_events)";
        String consumerMessages = "SELECT count(*) FROM messages m WHERE m.xmin IN " + consumer;
        // Only the consumer writes it (every decision it reads, of any partner).
        rules.ignore("consumed_events")
                // The consumer's system messages; every other message counts, the handoff's system message too.
                .where("messages", "xmin NOT IN " + consumer)
                // The consumer's message moves the last-message fields and updated_at and adds one unread by the
                // member: those four are not watched, the counter is, less the consumer's messages in the thread.
                .content("conversations", "id", "partner_id", "member_id", "member_name", "member_email", "prescriber_id",
                        "prescriber_name", "prescriber_email", "unread_by_prescriber", "created_at",
                        "unread_by_member - (" + consumerMessages + " AND m.conversation_id = conversations.id)")
                // The relay deletes what it published: only inserts count, less the consumer's (one message.system
                // per system message it posts).
                .insertsOnly("outbox_events", "id", consumerMessages)
                // The mail relay deletes a mail once sent and reschedules one that failed: only inserts count.
                .insertsOnly("mail_outbox", "id");
    }

    private static boolean namesForwardedHost(RawHttp.Response response) {
        String host = BadInputs.FORWARDED_HOST;
        return response.headers().stream().anyMatch(header -> header.value().toLowerCase(Locale.ROOT).contains(host))
                || response.bodyText().toLowerCase(Locale.ROOT).contains(host);
    }

    /**
     * The first of the endpoint's name fields that holds a control character or a line or
     * paragraph separator in the JSON sent, as the service reads it (of a key sent twice, the last).
     */
    static Optional<String> lineBreakingName(Endpoint endpoint, Call.Body body) {
        if (!(body instanceof Call.JsonBody json)) {
            return Optional.empty();
        }
        for (List<Object> path : endpoint.names()) {
            Json node = json.json();
            for (Object key : path) {
                node = node instanceof Json.Obj obj ? obj.fields().stream().filter(field -> field.getKey().equals(key))
                        .reduce((first, second) -> second).map(Map.Entry::getValue).orElse(null) : null;
            }
            if (node instanceof Json.Str str && str.value().chars().anyMatch(Oracle::breaksLine)) {
                return Optional.of(path + " " + Text.abbreviate(str.value()));
            }
        }
        return Optional.empty();
    }

    /** As platform-commons' {@code StringSchema.breaksLine}: a control character, U+2028 or U+2029. */
    static boolean breaksLine(int c) {
        return Character.isISOControl(c) || c == '\u2028' || c == '\u2029';
    }

    private static Optional<String> errorBodyProblem(RawHttp.Response response) {
        Optional<String> notJson = jsonProblem(response);
        if (notJson.isPresent()) {
            return Optional.of("error body is " + notJson.get());
        }
        JsonNode body = read(response.body());
        JsonNode error = body.get("error");
        if (!body.isObject() || error == null) {
            return Optional.of("error body has no \"error\"");
        }
        if (error.isTextual()) {
            return Optional.empty();
        }
        if (!error.isArray() || error.isEmpty()) {
            return Optional.of("\"error\" is neither a string nor an array of issues");
        }
        for (JsonNode issue : error) {
            if (!issue.path("code").isTextual() || !issue.path("path").isArray() || !issue.path("message").isTextual()) {
                return Optional.of("an issue without code, path and message: " + issue);
            }
        }
        return Optional.empty();
    }

    private static Optional<String> jsonProblem(RawHttp.Response response) {
        String type = response.header("content-type").orElse("");
        if (!type.toLowerCase(Locale.ROOT).startsWith("application/json")) {
            return Optional.of("not JSON (Content-Type " + (type.isEmpty() ? "none" : type) + ")");
        }
        try {
            JSON.readTree(response.body());
            return Optional.empty();
        } catch (IOException e) {
            return Optional.of("not JSON (" + e.getClass().getSimpleName() + ")");
        }
    }

    /** The body as JSON, or a missing node when it is not. */
    private static JsonNode readOrMissing(byte[] body) {
        try {
            JsonNode node = JSON.readTree(body);
            return node == null ? JSON.missingNode() : node;
        } catch (IOException e) {
            return JSON.missingNode();
        }
    }

    private static JsonNode read(byte[] body) {
        try {
            return JSON.readTree(body);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static AssertionError failure(Call call, String what, RawHttp.Response response) {
        String answer = response == null ? "" : "\n  answer: " + response.status() + " "
                + response.header("content-type").orElse("(no Content-Type)") + " " + Text.abbreviate(response.bodyText());
        return new AssertionError(what + "\n  call: " + call + answer);
    }

    private static ObjectMapper jsonReader() {
        ObjectMapper mapper = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        mapper.getFactory().setStreamReadConstraints(StreamReadConstraints.builder().maxStringLength(50_000_000).build());
        return mapper;
    }

    public Stats stats() {
        return stats;
    }

    @Override
    public void close() {
        http.close();
        fingerprints.values().forEach(TableFingerprints::close);
    }

    /** What the run did: calls per endpoint and status class, and where the time went. */
    public final class Stats {
        private final Map<String, int[]> byEndpoint = new TreeMap<>();
        private final Map<Integer, Integer> byStatus = new TreeMap<>();
        private long calls;
        private long fingerprintNanos;
        private long httpNanos;
        private long readyNanos;
        private long settleNanos;
        private long betweenNanos;
        private long leftAt;
        private long forwarded;
        private long uploadsPinned;
        private long uploadsStored;
        private long largeBodies;
        private long largeBodyBytes;
        private long uploadNanos;
        private final Map<String, int[]> names = new TreeMap<>();

        void ready(long nanos) {
            readyNanos += nanos;
        }

        void settled(long nanos) {
            settleNanos += nanos;
        }

        void left(long at) {
            leftAt = at;
        }

        void between(long enteredAt) {
            if (leftAt != 0) {
                betweenNanos += enteredAt - leftAt;
            }
        }

        void record(Call call, int status, long fingerprint, long http, byte[] body) {
            calls++;
            if (body != null && body.length > Multipart.FILE_LIMIT) {
                largeBodies++;
                largeBodyBytes += body.length;
            }
            fingerprintNanos += fingerprint;
            httpNanos += http;
            byStatus.merge(status, 1, Integer::sum);
            byEndpoint.computeIfAbsent(call.endpoint().label(), label -> new int[3])[status >= 400 ? 1 : 0]++;
            if (!call.endpoint().names().isEmpty() && lineBreakingName(call.endpoint(), call.body()).isPresent()) {
                names.computeIfAbsent(call.endpoint().label(), label -> new int[2])[status >= 400 ? 1 : 0]++;
            }
        }

        public long calls() {
            return calls;
        }

        public String summary() {
            List<String> lines = new ArrayList<>();
            lines.add(String.format("%d calls; per call %.1f ms HTTP, %.1f ms fingerprints (before and after)", calls,
                    calls == 0 ? 0.0 : httpNanos / 1e6 / calls, calls == 0 ? 0.0 : fingerprintNanos / 1e6 / calls));
            lines.add(String.format("in all: %.1f s HTTP, %.1f s fingerprints, %.1f s making the fixture's parts anew, %.1f s settling"
                    + " after successes, %.1f s between calls (generating them)", httpNanos / 1e9, fingerprintNanos / 1e9,
                    readyNanos / 1e9, settleNanos / 1e9, betweenNanos / 1e9));
            lines.add("parts made anew: " + new TreeMap<>(fixture.remade()));
            lines.add(String.format("uploads: %.1f s in all, HTTP, fingerprints and downloads; %d stored (each downloaded and"
                    + " compared), %d answers held to the contract's; %d bodies over 10 MB (%.1f MB in all); %d calls with a proxy's"
                    + " headers", uploadNanos / 1e9, uploadsStored, uploadsPinned, largeBodies, largeBodyBytes / 1e6, forwarded));
            names.forEach((label, counts) -> lines.add(String.format("  a line-breaking name to %-55s %5d accepted %5d refused",
                    label, counts[0], counts[1])));
            lines.add("statuses: " + byStatus);
            byEndpoint.forEach((label, counts) -> lines.add(String.format("  %-70s %5d ok %5d refused", label, counts[0], counts[1])));
            return String.join("\n", lines);
        }
    }
}
