package com.telemed.testkit.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.telemed.testkit.infra.MailServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The demo data ./stack seeds (issue #39: a booking page and a hosted survey page to open in a browser;
 * issue #41: a pending request for the demo prescriber to review in the console) against a stand-in gateway that keeps the operator and partner APIs' state in memory: a first
 * {@code up} makes everything, the next ones make nothing (idempotent), a booking link that shows
 * nothing any more is replaced, and the lines ./stack prints are exactly these.
 */
class DemoDataTest {

    private static final String OPS_KEY = "ops_demo_test_key";
    private static final String PK = "pk_0123456789abcdef0123456789abcdef";

    @TempDir
    Path home;

    private FakeGateway gateway;

    @BeforeEach
    void start() throws IOException {
        gateway = new FakeGateway();
    }

    @AfterEach
    void stop() {
        gateway.close();
    }

    private DemoData.Seeded seed() {
        return DemoData.seed(gateway.url(), OPS_KEY, home.resolve("demo.properties"));
    }

    private Properties kept() throws IOException {
        Properties kept = new Properties();
        try (var in = Files.newBufferedReader(home.resolve("demo.properties"))) {
            kept.load(in);
        }
        return kept;
    }

    @Test
    void aFirstUpMakesEverythingAndTheNextOnesMakeNothing() throws IOException {
        DemoData.Seeded first = seed();
        String token = gateway.onlyToken();
        Properties kept = kept();
        assertEquals(List.of("POST /ops/v1/partners", "PUT /ops/v1/drugs/semaglutide", "PUT /ops/v1/drugs/tirzepatide",
                "PUT /ops/v1/drugs/finasteride", "PUT /ops/v1/drugs/sildenafil", "POST /ops/v1/prescribers",
                "PUT /ops/v1/prescribers/" + kept.getProperty("prescriberId") + "/availability", "PUT /ops/v1/surveys/demo-intake",
                "POST /v1/requests", "POST /ops/v1/requests/" + kept.getProperty("bookingRequestId") + "/request-consultation",
                "POST /v1/requests"), gateway.writes());
        assertEquals(gateway.url() + "/book/" + token, first.bookingPage());
        assertEquals(gateway.url() + "/surveys/demo-intake?key=" + PK, first.surveyPage());
        assertEquals(token, kept.getProperty("bookingToken"));
        // The consultation is the demo partner's (its API key), for the demo prescriber, of a request without a drug.
        assertEquals(2, gateway.requestBodies.size());
        JsonNode request = gateway.requestBodies.get(0);
        assertEquals("sam.demo@demo-patient.example", request.path("member").path("email").asText());
        assertFalse(request.has("items"));
        // The request the demo prescriber reviews in the console: the same patient, one item of a demo drug.
        JsonNode review = gateway.requestBodies.get(1);
        assertEquals(request.path("member"), review.path("member"));
        // Compared as JSON trees: Map.of's order of keys changes from one JVM to the next.
        assertEquals(new ObjectMapper().readTree("[{\"drugId\":\"semaglutide\",\"dosage\":\"0.25 mg weekly\"}]"),
                review.path("items"));
        assertEquals("Demo prescription request (./stack): review it in the console.", review.path("caseNotes").asText());
        assertEquals(gateway.lastRequestId, kept.getProperty("reviewRequestId"));
        assertNotEquals(kept.getProperty("bookingRequestId"), kept.getProperty("reviewRequestId"));
        // What ./stack prints about it (the stand-in gateway has no local accounts).
        assertEquals("Demo partner: " + kept.getProperty("partnerId") + " (sandbox)\n"
                + "  API key:         " + kept.getProperty("apiKey") + "   (header x-api-key)\n"
                + "  Publishable key: " + PK + "\n"
                + "Demo prescriber: " + kept.getProperty("prescriberId") + "\n"
                + "Catalogue:       semaglutide, tirzepatide, finasteride, sildenafil\n"
                + "Demo request:    " + kept.getProperty("reviewRequestId")
                + " (semaglutide 0.25 mg weekly, pending: the demo prescriber reviews it in the console)\n"
                + "Console:         " + gateway.url() + "/console\n"
                + "Local accounts:  off (production without PLATFORM_IDENTITY_LOCAL_ACCOUNTS=true)\n", first.summary());
        assertEquals(kept.getProperty("apiKey"), gateway.apiKeyOfLastRequest);
        assertEquals(kept.getProperty("prescriberId"),
                gateway.bodies.get("POST /ops/v1/requests/" + kept.getProperty("bookingRequestId") + "/request-consultation")
                        .path("prescriberId").asText());
        JsonNode hours = gateway.bodies.get("PUT /ops/v1/prescribers/" + kept.getProperty("prescriberId") + "/availability");
        assertEquals("America/New_York", hours.path("timezone").asText());
        assertEquals(7, hours.path("weekly").size());
        assertEquals(30, hours.path("slotMinutes").asInt());
        JsonNode survey = gateway.bodies.get("PUT /ops/v1/surveys/demo-intake");
        assertEquals("[\"finasteride\"]", survey.path("drugIds").toString());
        assertEquals(4, survey.path("questions").size());

        gateway.clearWrites();
        DemoData.Seeded second = seed();
        assertEquals(List.of(), gateway.writes());
        assertEquals(first, second);
        assertEquals(kept, kept());

        // Booked meanwhile: the link now shows the appointment, and is kept.
        gateway.bookings.put(token, "booked");
        assertEquals(first, seed());
        assertEquals(List.of(), gateway.writes());
    }

    @Test
    void aBookingLinkThatShowsNothingAnyMoreIsReplacedByANewConsultations() throws IOException {
        DemoData.Seeded first = seed();
        String expired = gateway.onlyToken();
        for (String gone : List.of("expired", "unknown", "cancelled", "closed")) {
            String token = kept().getProperty("bookingToken");
            gateway.bookings.put(token, gone);
            gateway.clearWrites();
            DemoData.Seeded again = seed();
            String requestId = kept().getProperty("bookingRequestId");
            assertEquals(List.of("POST /v1/requests", "POST /ops/v1/requests/" + requestId + "/request-consultation"),
                    gateway.writes(), gone);
            String replaced = kept().getProperty("bookingToken");
            assertNotEquals(token, replaced, gone);
            assertEquals("open", gateway.bookings.get(replaced));
            assertEquals(gateway.url() + "/book/" + replaced, again.bookingPage(), gone);
            assertEquals(first.surveyPage(), again.surveyPage());
        }
        assertNotEquals(expired, kept().getProperty("bookingToken"));
    }

    /** The review request is made once: kept while the platform knows it, made again only when it does not. */
    @Test
    void theDemoRequestToReviewIsMadeOnceAndAgainOnlyWhenThePlatformLostIt() throws IOException {
        seed();
        String first = kept().getProperty("reviewRequestId");
        gateway.clearWrites();
        seed();
        assertEquals(List.of(), gateway.writes());
        assertEquals(first, kept().getProperty("reviewRequestId"));

        gateway.forget(first);
        DemoData.Seeded again = seed();
        assertEquals(List.of("POST /v1/requests"), gateway.writes());
        String replaced = kept().getProperty("reviewRequestId");
        assertNotEquals(first, replaced);
        assertEquals(gateway.lastRequestId, replaced);
        assertTrue(again.summary().contains("Demo request:    " + replaced + " ("), again.summary());
    }

    /** An operator's own hours and survey stay; a prescriber whose id this file lost is replaced by one whose id is known. */
    @Test
    void whatAnOperatorChangedStaysAndALostPrescriberIdIsMadeAgain() throws IOException {
        seed();
        Properties kept = kept();
        kept.remove("prescriberId");
        try (var out = Files.newBufferedWriter(home.resolve("demo.properties"))) {
            kept.store(out, null);
        }
        gateway.clearWrites();
        seed();
        List<String> writes = gateway.writes();
        String prescriberId = kept().getProperty("prescriberId");
        assertEquals(List.of("POST /ops/v1/prescribers", "POST /ops/v1/prescribers",
                "PUT /ops/v1/prescribers/" + prescriberId + "/availability"), writes);
        assertTrue(gateway.prescriberEmails.get(prescriberId).matches("maya\\.chen\\+[0-9a-f]{8}@demo-clinic\\.example"),
                gateway.prescriberEmails.get(prescriberId));
    }

    @Test
    void aBookingUrlsTokenIsItsLastSegmentAndThePagesAreOnTheGateway() {
        assertEquals("q3V0b2tlbi1ib29raW5nLWxpbmstMjRi", DemoData.bookingToken("http://localhost:8080/book/q3V0b2tlbi1ib29raW5nLWxpbmstMjRi"));
        assertEquals("abc", DemoData.bookingToken("https://care.example/patients/book/abc"));
        assertThrows(IllegalStateException.class, () -> DemoData.bookingToken("http://localhost:8080/book/"));
        assertThrows(IllegalStateException.class, () -> DemoData.bookingToken("http://localhost:8080/other/abc"));
        URI gatewayUrl = URI.create("http://127.0.0.1:8080");
        assertEquals("http://127.0.0.1:8080/book/abc", DemoData.bookingPage(gatewayUrl, "abc"));
        assertEquals("http://127.0.0.1:8080/surveys/demo-intake?key=" + PK, DemoData.surveyPage(gatewayUrl, PK));
    }

    @Test
    void theConsoleAndBothSignInsArePrintedTogether() {
        assertEquals("http://127.0.0.1:8080/console", DemoData.consolePage(URI.create("http://127.0.0.1:8080")));
        Properties kept = new Properties();
        kept.setProperty("adminEmail", "admin@stack.local");
        kept.setProperty("adminPassword", "a".repeat(24));
        kept.setProperty("prescriberEmail", "prescriber@stack.local");
        kept.setProperty("prescriberPassword", "p".repeat(24));
        assertEquals("Admin sign-in:   admin@stack.local  " + "a".repeat(24) + "   (POST /ops/v1/sessions, then Authorization: Bearer <token>)\n"
                + "Prescriber sign-in: prescriber@stack.local  " + "p".repeat(24) + "   (the console, or POST /ops/v1/sessions)\n",
                DemoData.signInLines(kept, true));
    }

    @Test
    void whatStackPrintsOnceReady() {
        DemoData.Seeded demo = new DemoData.Seeded("Demo partner: p1 (sandbox)\n", "http://127.0.0.1:8080/book/abc",
                "http://127.0.0.1:8080/surveys/demo-intake?key=" + PK);
        assertEquals("Booking page: http://127.0.0.1:8080/book/abc\n"
                + "Survey page:  http://127.0.0.1:8080/surveys/demo-intake?key=" + PK + "\n", demo.pageLines());
        MailServer mail = new MailServer() {
            @Override
            public String host() {
                return "smtp.example";
            }

            @Override
            public int port() {
                return 25;
            }

            @Override
            public void close() {
            }
        };
        assertEquals("Gateway:      http://127.0.0.1:8080\n"
                        + "Booking page: http://127.0.0.1:8080/book/abc\n"
                        + "Survey page:  http://127.0.0.1:8080/surveys/demo-intake?key=" + PK + "\n"
                        + "Operator key: ops_x   (header x-ops-key)\n"
                        + "Mail:         SMTP smtp.example:25 (external: PLATFORM_SMTP_HOST)\n"
                        + "Demo partner: p1 (sandbox)\n",
                StackMain.readySummary(URI.create("http://127.0.0.1:8080"), "ops_x", mail, demo));
    }

    /**
     * The gateway's operator and partner APIs as the demo data uses them (operations-api.md, interfaces39.md
     * A), their state in memory: partners, drugs, prescribers and their hours, surveys, requests, booking
     * links ({@code bookings}: token to status; {@code expired} answers 410, {@code unknown} 404).
     */
    private static final class FakeGateway implements AutoCloseable {

        private static final ObjectMapper JSON = new ObjectMapper();
        private static final Pattern ID = Pattern.compile("/ops/v1/(partners|prescribers|drugs|surveys|bookings)/([^/]+)(/availability)?");
        private static final Pattern CONSULTATION = Pattern.compile("/ops/v1/requests/([^/]+)/request-consultation");

        private final HttpServer server;
        private final List<String> writes = new CopyOnWriteArrayList<>();
        final Map<String, JsonNode> bodies = new HashMap<>();
        /** Every {@code POST /v1/requests} body, in order. */
        final List<JsonNode> requestBodies = new CopyOnWriteArrayList<>();
        private final Map<String, String> apiKeys = new HashMap<>();
        private final Set<String> partners = new LinkedHashSet<>();
        private final Set<String> drugs = new LinkedHashSet<>();
        final Map<String, String> prescriberEmails = new HashMap<>();
        private final Set<String> availability = new LinkedHashSet<>();
        private final Set<String> surveys = new LinkedHashSet<>();
        private final Set<String> requests = new LinkedHashSet<>();
        final Map<String, String> bookings = new HashMap<>();
        volatile String apiKeyOfLastRequest;
        volatile String lastRequestId;

        static {
            // Headers and body as one write's worth: without it each answer waits on the client's delayed ACK (40 ms).
            System.setProperty("sun.net.httpserver.nodelay", "true");
        }

        FakeGateway() throws IOException {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            server.createContext("/", exchange -> {
                try (exchange) {
                    answer(exchange);
                }
            });
            server.start();
        }

        URI url() {
            return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
        }

        List<String> writes() {
            return List.copyOf(writes);
        }

        void clearWrites() {
            writes.clear();
        }

        String onlyToken() {
            assertEquals(1, bookings.size(), bookings.toString());
            return bookings.keySet().iterator().next();
        }

        /** The platform no longer knows this request (a new database, say): {@code GET /v1/requests/:id} 404. */
        synchronized void forget(String requestId) {
            requests.remove(requestId);
        }

        @Override
        public void close() {
            server.stop(0);
        }

        private synchronized void answer(HttpExchange exchange) throws IOException {
            String method = exchange.getRequestMethod();
            String path = exchange.getRequestURI().getPath();
            byte[] sent = exchange.getRequestBody().readAllBytes();
            JsonNode body = sent.length == 0 ? JSON.nullNode() : JSON.readTree(sent);
            if (!method.equals("GET")) {
                writes.add(method + " " + path);
                bodies.put(method + " " + path, body);
            }
            String opsKey = exchange.getRequestHeaders().getFirst("x-ops-key");
            String apiKey = exchange.getRequestHeaders().getFirst("x-api-key");
            if (path.startsWith("/ops/") && !OPS_KEY.equals(opsKey)) {
                send(exchange, 401, Map.of("error", "Invalid Ops Key"));
                return;
            }
            if (path.startsWith("/v1/")) {
                if (!apiKeys.containsKey(apiKey)) {
                    send(exchange, 401, Map.of("error", "Invalid API Key"));
                    return;
                }
                if (path.equals("/v1/drugs")) {
                    send(exchange, 200, Map.of("drugs", List.of()));
                } else if (method.equals("GET") && path.startsWith("/v1/requests/")) {
                    String requestId = path.substring("/v1/requests/".length());
                    found(exchange, requests.contains(requestId), Map.of("id", requestId, "status", "pending"));
                } else if (method.equals("POST") && path.equals("/v1/requests")) {
                    apiKeyOfLastRequest = apiKey;
                    requestBodies.add(body);
                    String requestId = UUID.randomUUID().toString();
                    requests.add(requestId);
                    lastRequestId = requestId;
                    send(exchange, 201, Map.of("success", true, "requestId", requestId));
                } else {
                    send(exchange, 404, Map.of("error", "Not Found"));
                }
                return;
            }
            if (method.equals("POST") && path.equals("/ops/v1/partners")) {
                String id = UUID.randomUUID().toString();
                partners.add(id);
                String key = "apx_" + UUID.randomUUID().toString().replace("-", "");
                apiKeys.put(key, id);
                send(exchange, 201, Map.of("partner", Map.of("id", id), "apiKey", key, "publishableKey", PK));
                return;
            }
            if (method.equals("GET") && path.equals("/ops/v1/drugs")) {
                send(exchange, 200, Map.of("drugs", drugs.stream().map(drug -> Map.of("id", drug)).toList()));
                return;
            }
            if (method.equals("POST") && path.equals("/ops/v1/prescribers")) {
                String email = body.path("email").asText();
                if (prescriberEmails.containsValue(email)) {
                    send(exchange, 400, Map.of("error", "Prescriber already exists"));
                    return;
                }
                String id = UUID.randomUUID().toString();
                prescriberEmails.put(id, email);
                send(exchange, 201, Map.of("prescriber", Map.of("id", id)));
                return;
            }
            Matcher consultation = CONSULTATION.matcher(path);
            if (method.equals("POST") && consultation.matches() && requests.contains(consultation.group(1))) {
                String token = UUID.randomUUID().toString().replace("-", "");
                bookings.put(token, "open");
                send(exchange, 200, Map.of("request", Map.of("id", consultation.group(1)),
                        "booking", Map.of("bookingUrl", "http://localhost:8080/book/" + token, "bookingExpiresAt", "2026-12-08T00:00:00.000Z")));
                return;
            }
            Matcher id = ID.matcher(path);
            if (!id.matches()) {
                send(exchange, 404, Map.of("error", "Not Found"));
                return;
            }
            String kind = id.group(1) + (id.group(3) == null ? "" : id.group(3));
            String key = id.group(2);
            switch (method + " " + kind) {
                case "GET partners" -> found(exchange, partners.contains(key), Map.of("partner", Map.of("id", key)));
                case "PUT drugs" -> {
                    drugs.add(key);
                    send(exchange, 200, Map.of("drug", Map.of("id", key)));
                }
                case "GET prescribers" -> found(exchange, prescriberEmails.containsKey(key), Map.of("prescriber", Map.of("id", key)));
                case "GET prescribers/availability" -> found(exchange, availability.contains(key), Map.of("availability", Map.of()));
                case "PUT prescribers/availability" -> {
                    availability.add(key);
                    send(exchange, 200, Map.of("availability", Map.of()));
                }
                case "GET surveys" -> found(exchange, surveys.contains(key), Map.of("survey", Map.of("id", key)));
                case "PUT surveys" -> {
                    surveys.add(key);
                    send(exchange, 200, Map.of("survey", Map.of("id", key)));
                }
                case "GET bookings" -> {
                    String status = bookings.getOrDefault(key, "unknown");
                    switch (status) {
                        case "unknown" -> send(exchange, 404, Map.of("error", "Booking link not found"));
                        case "expired" -> send(exchange, 410, Map.of("error", "Booking link has expired"));
                        default -> send(exchange, 200, Map.of("booking", Map.of("status", status)));
                    }
                }
                default -> send(exchange, 404, Map.of("error", "Not Found"));
            }
        }

        private static void found(HttpExchange exchange, boolean found, Object body) throws IOException {
            send(exchange, found ? 200 : 404, found ? body : Map.of("error", "Not found"));
        }

        private static void send(HttpExchange exchange, int status, Object body) throws IOException {
            byte[] bytes = JSON.writeValueAsString(body).getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, bytes.length);
            exchange.getResponseBody().write(bytes);
        }
    }
}
