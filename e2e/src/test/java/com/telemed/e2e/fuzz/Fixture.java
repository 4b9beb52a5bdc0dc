package com.telemed.e2e.fuzz;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.telemed.testkit.concurrent.Parallel;
import com.telemed.testkit.e2e.RunningPlatform;
import com.telemed.testkit.platform.PlatformService;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The real resources bad input is aimed at, made through the gateway as a partner and an operator
 * would: partner P (whose keys the partner and embed calls use; deferred fulfilment, so nothing is
 * transmitted to a pharmacy in the background; {@link #ORIGIN} its embed origin) with a member, a pending request
 * with one item claimed by P's prescriber, a drug it may order, and the conversation of that
 * member and prescriber with a patient's message in it; the drug's intake survey, an anonymous
 * response of P's to it that backs no request, and an unused returning-member token of P's for
 * the member; partner Q, the target of the operator's partner calls, with a delivered webhook; a
 * drug and its survey for the operator's catalogue and survey calls.
 *
 * <p>A call that succeeds may use a resource up (the request is decided or deleted): the
 * endpoint it reached (its path and method, whichever endpoint it was aimed at) names the
 * {@link Part}, and {@link #ready()} makes it anew before the next call. The
 * conversation belongs to the member: a new member gets a new one.
 */
public final class Fixture {

    /**
     * What a successful call can use up: the member (deleted), the request (decided, deleted), the
     * survey response (it backs a request now), the token (good for one submission).
     */
    public enum Part { MEMBER, REQUEST, RESPONSE, TOKEN }

    /**
     * The intake survey's questions, which the embed bodies of {@link Endpoints} answer: q1 a
     * required boolean (disqualifying when true), q2 a choice of yes / no, q3 a number
     * (disqualifying at 0), q4 a text; q2 to q4 optional.
     */
    static final String SURVEY_QUESTIONS = """
            [{"id": "q1", "text": "Are you pregnant?", "type": "boolean", "required": true, "disqualifyWhen": {"equals": true}},
             {"id": "q2", "text": "Any allergies?", "type": "choice", "options": ["yes", "no"], "required": false},
             {"id": "q3", "text": "Your weight in pounds", "type": "number", "required": false, "disqualifyWhen": {"equals": 0}},
             {"id": "q4", "text": "Anything else?", "type": "text", "required": false}]""";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration SETTLE = Duration.ofSeconds(60);
    /** A settle follows most successful calls: looked at often, so that the next call starts soon after. */
    private static final Duration SETTLE_POLL = Duration.ofMillis(10);

    private final RunningPlatform.Handle platform;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final Map<Slot, String> ids = new EnumMap<>(Slot.class);
    private final Set<Part> stale = EnumSet.noneOf(Part.class);
    /** How often {@link #ready()} made each part anew. */
    private final Map<Part, Integer> remade = new EnumMap<>(Part.class);
    private final Connection webhookDb;
    private final Connection catalogueDb;
    private final Connection requestsDb;
    private String apiKey;
    private String publishableKey;
    private String partnerId;
    private String opsPartnerId;

    /** An origin the fixture partner allows for the embed API. */
    public static final String ORIGIN = "https://fuzz.example";
    /** A well-formed id nothing has: what "unknown" means for every slot. */
    public static final String UNKNOWN = "5f0c6c1e-1c9e-4a57-9a0e-3d1f1b2f9c11";

    private Fixture(RunningPlatform.Handle platform, Connection webhookDb, Connection catalogueDb, Connection requestsDb) {
        this.platform = platform;
        this.webhookDb = webhookDb;
        this.catalogueDb = catalogueDb;
        this.requestsDb = requestsDb;
    }

    /** Makes everything; {@code webhookUrl} answers 2xx to every delivery. */
    public static Fixture create(RunningPlatform.Handle platform, String webhookUrl) {
        Fixture fixture = new Fixture(platform, connect(platform, PlatformService.WEBHOOK), connect(platform, PlatformService.CATALOGUE),
                connect(platform, PlatformService.REQUESTS));
        fixture.build(webhookUrl);
        fixture.settleCatalogueCopy();
        return fixture;
    }

    private static Connection connect(RunningPlatform.Handle platform, PlatformService service) {
        var postgres = platform.infrastructure().postgres();
        try {
            return DriverManager.getConnection(postgres.jdbcUrl(service.database()), postgres.username(), postgres.password());
        } catch (SQLException e) {
            throw new IllegalStateException("cannot reach the " + service.database() + " database", e);
        }
    }

    private void build(String webhookUrl) {
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        JsonNode p = ops("POST", "/ops/v1/partners", "{\"name\": \"Fuzz P " + suffix + "\"}", 201);
        apiKey = p.get("apiKey").asText();
        publishableKey = p.get("publishableKey").asText();
        partnerId = p.get("partner").get("id").asText();
        ops("PUT", "/ops/v1/partners/" + partnerId + "/embed-origins", "{\"origins\": [\"" + ORIGIN + "\"]}", 200);
        // Deferred: an approval the property makes is never transmitted in the background (requests-service's
        // dispatcher, and its retries of held items every 30 s, would write line_items, prescription_records,
        // history_entries and requests during later calls); send-to-pharmacy writes only in the call that asks.
        ops("PUT", "/ops/v1/partners/" + partnerId + "/fulfilment", "{\"mode\": \"deferred\"}", 200);

        String drugId = "fuzz-" + suffix;
        JsonNode drug = ops("PUT", "/ops/v1/drugs/" + drugId, """
                {"name": "Fuzzamine", "classification": "non-controlled",
                 "skus": [{"label": "1 mg", "packageSize": 10, "concentration": {"value": 2.5, "activeUnit": "mg", "baseUnit": "mL"},
                           "active": true}, {"label": "5 mg", "active": true}],
                 "pharmacy": {"id": "sandbox", "method": "email"}}""", 200).get("drug");
        ids.put(Slot.DRUG, drugId);
        ids.put(Slot.SKU, drug.get("skus").get(0).get("id").asText());
        ids.put(Slot.SKU2, drug.get("skus").get(1).get("id").asText());
        ids.put(Slot.SKU_LABEL, "1 mg");
        String opsDrugId = "fuzz-ops-" + suffix;
        ops("PUT", "/ops/v1/drugs/" + opsDrugId, """
                {"name": "Opsamine", "classification": "controlled", "skus": [{"label": "10 mL", "active": true}],
                 "pharmacy": {"id": "sandbox", "method": "none"}}""", 200);
        ids.put(Slot.OPS_DRUG, opsDrugId);
        ids.put(Slot.PRESCRIBER, ops("POST", "/ops/v1/prescribers",
                "{\"name\": \"Dr Fuzz\", \"email\": \"dr.fuzz." + suffix + "@clinic.example\"}", 201)
                .get("prescriber").get("id").asText());
        makeMember();
        makeRequest();
        makeConversation();

        // The drug's intake survey (partners and browsers), and the operator's own on the operator's drug.
        String surveyId = "fuzz-survey-" + suffix;
        ops("PUT", "/ops/v1/surveys/" + surveyId, """
                {"title": "Fuzz intake", "drugIds": ["%s"], "questions": %s}""".formatted(drugId, SURVEY_QUESTIONS), 200);
        ids.put(Slot.SURVEY, surveyId);
        String opsSurveyId = "fuzz-ops-survey-" + suffix;
        ops("PUT", "/ops/v1/surveys/" + opsSurveyId, """
                {"title": "Fuzz ops intake", "drugIds": ["%s"], "questions": %s}""".formatted(opsDrugId, SURVEY_QUESTIONS), 200);
        ids.put(Slot.OPS_SURVEY, opsSurveyId);
        makeResponse();
        makeToken();

        // An event of P (issue #42): a request of its member denied at once, whose events are recorded as P's (not
        // sent: P has no URL).
        String pRequest = call("POST", "/v1/requests", "x-api-key", apiKey, """
                {"memberId": "%s", "items": [{"drugId": "%s"}], "caseNotes": "for an event"}"""
                .formatted(ids.get(Slot.MEMBER), drugId), 201).get("requestId").asText();
        String pItem = call("GET", "/v1/requests/" + pRequest, "x-api-key", apiKey, null, 200)
                .get("lineItems").get(0).get("itemId").asText();
        ops("POST", "/ops/v1/requests/" + pRequest + "/items/" + pItem + "/deny",
                "{\"prescriberId\": \"" + ids.get(Slot.PRESCRIBER) + "\"}", 200);
        await().atMost(SETTLE).pollInterval(SETTLE_POLL).until(() -> count("SELECT count(*) FROM events WHERE partner_id = '" + partnerId
                + "' AND type = 'item.denied'") == 1);
        ids.put(Slot.EVENT, text("SELECT id::text FROM events WHERE partner_id = '" + partnerId + "' AND type = 'item.denied'"));

        // Q: a partner of its own for the operator's partner calls, with one delivered webhook.
        JsonNode q = ops("POST", "/ops/v1/partners", "{\"name\": \"Fuzz Q " + suffix + "\"}", 201);
        opsPartnerId = q.get("partner").get("id").asText();
        String qKey = q.get("apiKey").asText();
        ops("PUT", "/ops/v1/partners/" + opsPartnerId + "/webhook", "{\"url\": \"" + webhookUrl + "\"}", 200);
        String qRequest = call("POST", "/v1/requests", "x-api-key", qKey, """
                {"member": {"firstName": "Quinn", "lastName": "Q", "email": "quinn@example.com", "dateOfBirth": "1990-03-04",
                 "state": "NY", "address": {"street1": "3 Q St", "city": "Albany", "state": "NY", "zipCode": "12207"}},
                 "items": [{"drugId": "%s"}], "caseNotes": "for a delivery"}""".formatted(drugId), 201)
                .get("requestId").asText();
        String qItem = call("GET", "/v1/requests/" + qRequest, "x-api-key", qKey, null, 200)
                .get("lineItems").get(0).get("itemId").asText();
        ops("POST", "/ops/v1/requests/" + qRequest + "/items/" + qItem + "/deny",
                "{\"prescriberId\": \"" + ids.get(Slot.PRESCRIBER) + "\"}", 200);
        // item.denied and request.all_denied, each delivered once.
        await().atMost(SETTLE).pollInterval(SETTLE_POLL).until(() -> count("SELECT count(*) FROM deliveries WHERE partner_id = '" + opsPartnerId
                + "' AND status = 'delivered'") == 2);
        ids.put(Slot.DELIVERY, text("SELECT id::text FROM deliveries WHERE partner_id = '" + opsPartnerId
                + "' ORDER BY seq LIMIT 1"));
        ids.put(Slot.OPS_PARTNER, opsPartnerId);
        ids.put(Slot.WEBHOOK_URL, webhookUrl);
        ids.put(Slot.APPOINTMENT, UUID.randomUUID().toString());
    }

    private void makeMember() {
        ids.put(Slot.MEMBER, call("POST", "/v1/members", "x-api-key", apiKey, """
                {"firstName": "Fay", "lastName": "Fixture", "email": "fay.fixture@example.com", "dateOfBirth": "1975-05-06",
                 "state": "IL", "address": {"street1": "1 Main St", "city": "Springfield", "state": "IL", "zipCode": "62701"}}""",
                201).get("member").get("id").asText());
    }

    /**
     * A new request of the member, claimed by P's prescriber. One at a time, each made when the one
     * before is used up (tried: eight made ahead at once, which failed the property): a create naming
     * the member refreshes requests-service's copy of it (member_copies) after a partner's change of the
     * member, and with requests made ahead that refresh fell to the property's next create, which, when
     * refused, still stored what it read through.
     */
    private void makeRequest() {
        String requestId = call("POST", "/v1/requests", "x-api-key", apiKey, """
                {"memberId": "%s", "items": [{"drugId": "%s", "requestedSkuId": "%s"}], "caseNotes": "Fixture request"}"""
                .formatted(ids.get(Slot.MEMBER), ids.get(Slot.DRUG), ids.get(Slot.SKU)), 201).get("requestId").asText();
        ids.put(Slot.REQUEST, requestId);
        // The prescriber picks it up: the member's current prescriber (for-member's resolution) is P's.
        // The claim answers with the request, its item among it.
        ids.put(Slot.ITEM, ops("POST", "/ops/v1/requests/" + requestId + "/claim",
                "{\"prescriberId\": \"" + ids.get(Slot.PRESCRIBER) + "\"}", 200)
                .get("request").get("lineItems").get(0).get("itemId").asText());
    }

    /**
     * The conversation of the member and the prescriber, with two patient messages: the first is
     * the one handed off, and the cursor after it is the one the thread's reads start from.
     */
    private void makeConversation() {
        String conversation = call("POST", "/v1/messages/conversations", "x-api-key", apiKey,
                "{\"memberId\": \"" + ids.get(Slot.MEMBER) + "\", \"prescriberId\": \"" + ids.get(Slot.PRESCRIBER) + "\"}",
                201).get("conversation").get("id").asText();
        ids.put(Slot.CONVERSATION, conversation);
        String messages = "/v1/messages/conversations/" + conversation + "/messages";
        ids.put(Slot.MESSAGE, call("POST", messages, "x-api-key", apiKey, "{\"text\": \"Fixture question\"}", 201)
                .get("message").get("id").asText());
        call("POST", messages, "x-api-key", apiKey, "{\"text\": \"Fixture follow-up\"}", 201);
        JsonNode cursor = call("GET", messages + "?limit=1", "x-api-key", apiKey, null, 200).get("nextCursor");
        if (cursor == null || !cursor.isTextual()) {
            throw new IllegalStateException("fixture: the first page of a thread of two has no nextCursor: " + cursor);
        }
        ids.put(Slot.CURSOR, cursor.asText());
    }

    /** An anonymous submission of the survey from P's page: a response that backs no request. */
    private void makeResponse() {
        ids.put(Slot.RESPONSE, call("POST", "/v2/embed/surveys/" + ids.get(Slot.SURVEY) + "/responses",
                "x-service-publishable-key", publishableKey, "Origin", ORIGIN, """
                {"answers": {"q1": false, "q2": "no", "q3": 150, "q4": "Fixture response"}}""", 201)
                .get("responseId").asText());
    }

    /** A returning-member token for the member and the survey (one submission). */
    private void makeToken() {
        ids.put(Slot.TOKEN, call("POST", "/v1/surveys/v2/tokens", "x-api-key", apiKey,
                "{\"memberId\": \"" + ids.get(Slot.MEMBER) + "\", \"surveyId\": \"" + ids.get(Slot.SURVEY) + "\"}", 201)
                .get("token").asText());
    }

    /** Makes anew what earlier successful calls used up. */
    public void ready() {
        stale.forEach(part -> remade.merge(part, 1, Integer::sum));
        if (stale.contains(Part.MEMBER)) {
            makeMember();
            stale.add(Part.REQUEST);
            // The token is the member's.
            stale.add(Part.TOKEN);
        }
        if (stale.contains(Part.REQUEST)) {
            makeRequest();
        }
        if (stale.contains(Part.MEMBER)) {
            makeConversation();
        }
        if (stale.contains(Part.RESPONSE)) {
            makeResponse();
        }
        if (stale.contains(Part.TOKEN)) {
            makeToken();
        }
        stale.clear();
    }

    /** How often each part was made anew, for the run's summary. */
    public Map<Part, Integer> remade() {
        return Map.copyOf(remade);
    }

    public void usedUp(Set<Part> parts) {
        stale.addAll(parts);
    }

    /**
     * Waits until no webhook delivery of Q is still being attempted (a successful redeliver starts
     * one in the background, which would change rows during the next call).
     */
    public void settleDeliveries() {
        await().atMost(SETTLE).pollInterval(SETTLE_POLL).until(() -> count("SELECT count(*) FROM deliveries WHERE partner_id = '" + opsPartnerId
                + "' AND status = 'retrying'") == 0);
    }

    /**
     * Waits until requests-service's copy of the catalogue holds every catalogue change: a successful
     * drug or access PUT publishes one, which requests-service applies in the background and which would
     * otherwise change its rows during the next call. Caught up when the copy's newest versions are the
     * catalogue's (every change takes the next version and is published).
     */
    public void settleCatalogueCopy() {
        await().atMost(SETTLE).pollInterval(SETTLE_POLL).until(() ->
                text(catalogueDb, "SELECT coalesce(max(version), 0) FROM drugs")
                        .equals(text(requestsDb, "SELECT coalesce(max(version), 0) FROM catalogue_drugs"))
                && text(catalogueDb, "SELECT coalesce(max(version), 0) FROM partner_access_versions")
                        .equals(text(requestsDb, "SELECT coalesce(max(version), 0) FROM catalogue_access")));
    }

    /**
     * Denies every request of P and Q that still awaits a decision, and returns how many: the review
     * queue is every partner's, oldest first, and shows at most 100, so the hundreds the property's
     * successful creates leave there would hide the requests of every test that runs after it on the
     * same platform. The queue, read as the operator reads it, says what awaits; a request with one
     * item or none is denied as a whole, one with several item by item.
     */
    public int denyWhatAwaitsReview() throws Exception {
        Set<String> ours = Set.of(partnerId, opsPartnerId);
        Set<String> denied = new HashSet<>();
        while (true) {
            List<String> waiting = new ArrayList<>();
            for (JsonNode request : ops("GET", "/ops/v1/review/queue?limit=100", null, 200).get("requests")) {
                String id = request.get("id").asText();
                if (ours.contains(request.get("partnerId").asText()) && !denied.contains(id)) {
                    waiting.add(id);
                }
            }
            if (waiting.isEmpty()) {
                return denied.size();
            }
            denied.addAll(waiting);
            Parallel.map(4, waiting, this::deny);
        }
    }

    private Void deny(String requestId) {
        String prescriber = "{\"prescriberId\": \"" + ids.get(Slot.PRESCRIBER) + "\", \"reason\": \"the bad-input run is over\"}";
        int status = status("POST", "/ops/v1/requests/" + requestId + "/deny", prescriber);
        if (status == 200) {
            return null;
        }
        // Several items: each undecided one (P's requests; the property makes none of Q's).
        for (JsonNode item : call("GET", "/v1/requests/" + requestId, "x-api-key", apiKey, null, 200).get("lineItems")) {
            String itemStatus = item.get("status").asText();
            if (itemStatus.equals("pending") || itemStatus.equals("call_requested")) {
                ops("POST", "/ops/v1/requests/" + requestId + "/items/" + item.get("itemId").asText() + "/deny", prescriber, 200);
            }
        }
        return null;
    }

    public String id(Slot slot) {
        if (slot == Slot.FRESH) {
            return UUID.randomUUID().toString();
        }
        if (slot == Slot.FRESH_EMAIL) {
            return "dr." + UUID.randomUUID() + "@clinic.example";
        }
        String id = ids.get(slot);
        if (id == null) {
            throw new IllegalStateException("the fixture has no " + slot);
        }
        return id;
    }

    public String apiKey() {
        return apiKey;
    }

    public String publishableKey() {
        return publishableKey;
    }

    public String opsKey() {
        return platform.opsKey();
    }

    /** Partner P: the partner whose webhook events (dropped, it has no URL) arrive in the background. */
    public String partnerId() {
        return partnerId;
    }

    private JsonNode ops(String method, String path, String body, int expected) {
        return call(method, path, "x-ops-key", platform.opsKey(), body, expected);
    }

    private JsonNode call(String method, String path, String keyHeader, String key, String body, int expected) {
        return call(method, path, keyHeader, key, null, null, body, expected);
    }

    private JsonNode call(String method, String path, String keyHeader, String key, String otherHeader, String otherValue,
                          String body, int expected) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(platform.gateway() + path))
                .timeout(Duration.ofSeconds(30)).header(keyHeader, key);
        if (otherHeader != null) {
            request.header(otherHeader, otherValue);
        }
        if (body == null) {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            request.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(body));
        }
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != expected) {
                throw new IllegalStateException("fixture: " + method + " " + path + " answered " + response.statusCode()
                        + " " + response.body());
            }
            return JSON.readTree(response.body());
        } catch (IOException e) {
            throw new IllegalStateException("fixture: " + method + " " + path + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** The status an operator call is answered with, whatever it is. */
    private int status(String method, String path, String body) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(platform.gateway() + path)).timeout(Duration.ofSeconds(30))
                .header("x-ops-key", platform.opsKey()).header("Content-Type", "application/json")
                .method(method, HttpRequest.BodyPublishers.ofString(body)).build();
        try {
            return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            throw new IllegalStateException("fixture: " + method + " " + path + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private long count(String sql) {
        return Long.parseLong(text(sql));
    }

    private String text(String sql) {
        return text(webhookDb, sql);
    }

    private static String text(Connection db, String sql) {
        try (var statement = db.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
            if (!rows.next()) {
                throw new IllegalStateException("no row: " + sql);
            }
            return rows.getString(1);
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    public void close() {
        for (Connection db : List.of(webhookDb, catalogueDb, requestsDb)) {
            try {
                db.close();
            } catch (SQLException ignored) {
                // closing anyway
            }
        }
    }
}
