package com.telemed.testkit.stack;

import com.telemed.testkit.infra.AtomicFiles;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;

/**
 * The demo data ./stack creates, through the gateway's operator and partner APIs as a back office
 * and a partner would: one sandbox partner (its keys kept in {@code .stack/demo.properties}, since
 * they are shown only once), a small catalogue, one prescriber with weekly hours, an intake survey,
 * a consultation request of a demo patient with its booking link, so that a new user has two
 * pages to open in a browser ({@link Seeded#pageLines}): the booking page and the hosted survey.
 * Two local accounts (when local accounts are on): the first admin and the demo prescriber's, their
 * passwords generated once and kept in the same file; ./stack prints their sign-ins and the console's
 * address. One prescription request of the same patient, one item of a demo drug left {@code pending},
 * so that the prescriber has something to review in the console (issue #41); made once, and again only
 * when the platform no longer knows it (not when someone decided it).
 * Idempotent: what exists is reused (ids and the booking token are kept in the same file); a
 * booking link that cannot be used any more (expired, unknown, its consultation over) is replaced
 * by a new consultation request's.
 */
public final class DemoData {

    /** What {@link #seed} made or found: the lines ./stack prints about it, and the two pages. */
    public record Seeded(String summary, String bookingPage, String surveyPage) {

        /** The two lines a new user opens in a browser, labels aligned with ./stack's other lines. */
        public String pageLines() {
            return "Booking page: " + bookingPage + "\n" + "Survey page:  " + surveyPage + "\n";
        }
    }

    /** The demo intake survey's id: its hosted page is {@code /surveys/demo-intake?key=<publishable key>}. */
    static final String SURVEY_ID = "demo-intake";

    /** The booking statuses whose link still shows something to book or the booked appointment (interfaces39.md A.4). */
    private static final Set<String> USABLE_BOOKING = Set.of("open", "booked");

    private static final Map<String, Object> SURVEY = Map.of(
            "title", "Hair loss: a few questions first",
            "drugIds", List.of("finasteride"),
            "questions", List.of(
                    Map.of("id", "years", "text", "For how many years have you noticed hair loss?", "type", "number",
                            "required", true),
                    Map.of("id", "where", "text", "Where is it most noticeable?", "type", "choice",
                            "options", List.of("Crown", "Hairline", "Both", "All over"), "required", true),
                    Map.of("id", "prostate", "text", "Have you ever been treated for prostate cancer?", "type", "boolean",
                            "required", true, "disqualifyWhen", Map.of("equals", true)),
                    Map.of("id", "notes", "text", "Anything else the prescriber should know?", "type", "text",
                            "required", false)));

    /** The demo prescriber's weekly hours: every day 08:00 to 20:00 in New York, 30-minute slots. */
    private static final Map<String, Object> AVAILABILITY = Map.of(
            "timezone", "America/New_York",
            "weekly", java.util.stream.IntStream.rangeClosed(1, 7)
                    .mapToObj(day -> Map.<String, Object>of("weekday", day, "start", "08:00", "end", "20:00")).toList(),
            "slotMinutes", 30);

    /** The demo request's one item, for the prescriber to review in the console: a demo drug, by its SKU's label. */
    private static final Map<String, Object> REVIEW_ITEM = Map.of("drugId", "semaglutide", "dosage", "0.25 mg weekly");

    /** The demo patient (fictional), whose consultation request carries the booking link. */
    private static final Map<String, Object> PATIENT = Map.of(
            "firstName", "Sam", "lastName", "Demo", "email", "sam.demo@demo-patient.example",
            "dateOfBirth", "1988-06-15", "state", "CA",
            "address", Map.of("street1", "1 Example Way", "city", "San Francisco", "state", "CA", "zipCode", "94105"));

    /** The first admin's local account (people-and-pages.md: ./stack up creates it and prints its sign-in). */
    static final LocalAccount ADMIN = new LocalAccount("admin", "admin@stack.local", "Stack Admin");

    /** The demo prescriber's local account, so the prescriber can act in person (POST /ops/v1/sessions). */
    static final LocalAccount PRESCRIBER = new LocalAccount("prescriber", "prescriber@stack.local", "Dr. Maya Chen");

    /** A local account ./stack keeps: its email, name, and the keys of its lines in demo.properties. */
    record LocalAccount(String key, String email, String name) {
    }

    private static final java.security.SecureRandom RANDOM = new java.security.SecureRandom();

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private static final List<Map<String, Object>> DRUGS = List.of(
            drug("semaglutide", "Semaglutide", "GLP-1 receptor agonist injection for weight management.",
                    List.of(sku("0.25 mg weekly", 0.5, 0.5), sku("0.5 mg weekly", 0.5, 1.0), sku("1 mg weekly", 0.5, 2.0))),
            drug("tirzepatide", "Tirzepatide", "GIP and GLP-1 receptor agonist injection.",
                    List.of(sku("2.5 mg weekly", 0.5, 5.0), sku("5 mg weekly", 0.5, 10.0))),
            drug("finasteride", "Finasteride", "Daily tablet for male pattern hair loss.",
                    List.of(Map.of("label", "1 mg tablet", "packageSize", 30, "active", true))),
            drug("sildenafil", "Sildenafil", "Tablet for erectile dysfunction.",
                    List.of(Map.of("label", "20 mg tablet", "packageSize", 30, "active", true),
                            Map.of("label", "50 mg tablet", "packageSize", 10, "active", false))));

    private final URI gateway;
    private final String opsKey;

    private DemoData(URI gateway, String opsKey) {
        this.gateway = gateway;
        this.opsKey = opsKey;
    }

    /** Creates what is missing and returns the lines ./stack prints about it, with the two pages. */
    public static Seeded seed(URI gateway, String opsKey, Path keptIn) {
        Properties kept = load(keptIn);
        DemoData demo = new DemoData(gateway, opsKey);
        try {
            demo.ensurePartner(kept);
            List<String> drugs = demo.ensureCatalogue();
            demo.ensurePrescriber(kept);
            demo.ensureAvailability(kept.getProperty("prescriberId"));
            demo.ensureSurvey();
            demo.ensureBookingLink(kept);
            demo.ensureReviewRequest(kept);
            boolean accounts = demo.ensureAccount(kept, ADMIN, List.of("admin"), null)
                    && demo.ensureAccount(kept, PRESCRIBER, List.of("prescriber"), kept.getProperty("prescriberId"));
            String summary = "Demo partner: " + kept.getProperty("partnerId") + " (sandbox)\n"
                    + "  API key:         " + kept.getProperty("apiKey") + "   (header x-api-key)\n"
                    + "  Publishable key: " + kept.getProperty("publishableKey") + "\n"
                    + "Demo prescriber: " + kept.getProperty("prescriberId") + "\n"
                    + "Catalogue:       " + String.join(", ", drugs) + "\n"
                    + "Demo request:    " + kept.getProperty("reviewRequestId") + " (" + REVIEW_ITEM.get("drugId") + " "
                    + REVIEW_ITEM.get("dosage") + ", pending: the demo prescriber reviews it in the console)\n"
                    + "Console:         " + consolePage(gateway) + "\n"
                    + signInLines(kept, accounts);
            return new Seeded(summary, bookingPage(gateway, kept.getProperty("bookingToken")),
                    surveyPage(gateway, kept.getProperty("publishableKey")));
        } finally {
            // What was made so far is kept even when a later step failed, so the next up reuses it.
            store(kept, keptIn);
        }
    }

    /** The booking page of a link's token on this gateway: {@code <gateway>/book/<token>}. */
    static String bookingPage(URI gateway, String token) {
        return gateway.resolve("/book/" + token).toString();
    }

    /** The console's address on this gateway: {@code <gateway>/console} (people-and-pages.md, "The console"). */
    public static String consolePage(URI gateway) {
        return gateway.resolve("/console").toString();
    }

    /** The demo survey's hosted page for the partner's visitors: {@code <gateway>/surveys/demo-intake?key=<publishable key>}. */
    static String surveyPage(URI gateway, String publishableKey) {
        return gateway.resolve("/surveys/" + SURVEY_ID + "?key=" + publishableKey).toString();
    }

    /**
     * The token of a {@code bookingUrl} (decisions.md: its last path segment). The link names the
     * deployment's public address ({@code BOOKING_BASE_URL}), which under ./stack is the gateway's
     * under another name: the page printed is on the gateway's own address.
     */
    static String bookingToken(String bookingUrl) {
        String path = URI.create(bookingUrl).getPath();
        String token = path.substring(path.lastIndexOf('/') + 1);
        if (token.isEmpty() || !path.endsWith("/book/" + token)) {
            throw new IllegalStateException("demo data: a booking link that is no /book/<token>: " + bookingUrl);
        }
        return token;
    }

    /**
     * Whether a kept booking link still shows the patient something ({@code GET /ops/v1/bookings/:token}):
     * open for booking, or its appointment booked. Expired (410), unknown (404), cancelled or closed: a new one is issued.
     */
    static boolean usable(int status, JsonNode answer) {
        return status == 200 && USABLE_BOOKING.contains(answer.path("booking").path("status").asText());
    }

    private void ensurePartner(Properties kept) {
        String id = kept.getProperty("partnerId");
        if (id != null && call("GET", "/ops/v1/partners/" + id, null).statusCode() == 200) {
            if (!apiKeyWorks(kept.getProperty("apiKey"))) {
                // Rotated since (the walkthrough does it): take a fresh key rather than a new partner.
                JsonNode rotated = expect(call("POST", "/ops/v1/partners/" + id + "/api-key/rotate", null), 200);
                kept.setProperty("apiKey", rotated.path("apiKey").asText());
            }
            return;
        }
        JsonNode created = expect(call("POST", "/ops/v1/partners", Map.of("name", "Demo Health (sandbox)")), 201);
        kept.setProperty("partnerId", created.path("partner").path("id").asText());
        kept.setProperty("apiKey", created.path("apiKey").asText());
        kept.setProperty("publishableKey", created.path("publishableKey").asText());
    }

    private boolean apiKeyWorks(String apiKey) {
        try {
            HttpRequest request = HttpRequest.newBuilder(gateway.resolve("/v1/drugs")).timeout(Duration.ofSeconds(15))
                    .header("x-api-key", apiKey == null ? "" : apiKey).GET().build();
            return HTTP.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() != 401;
        } catch (IOException e) {
            throw new UncheckedIOException("demo data: cannot check the demo API key", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private List<String> ensureCatalogue() {
        JsonNode listed = expect(call("GET", "/ops/v1/drugs", null), 200);
        Set<String> present = new HashSet<>();
        listed.path("drugs").forEach(drug -> present.add(drug.path("id").asText()));
        for (Map<String, Object> drug : DRUGS) {
            String id = (String) drug.get("id");
            if (!present.contains(id)) {
                Map<String, Object> body = new java.util.HashMap<>(drug);
                body.remove("id");
                expect(call("PUT", "/ops/v1/drugs/" + id, body), 200);
            }
        }
        return DRUGS.stream().map(drug -> (String) drug.get("id")).toList();
    }

    private void ensurePrescriber(Properties kept) {
        String id = kept.getProperty("prescriberId", "");
        if (id.matches("[0-9a-f-]{36}") && call("GET", "/ops/v1/prescribers/" + id, null).statusCode() == 200) {
            return;
        }
        HttpResponse<String> created = call("POST", "/ops/v1/prescribers",
                Map.of("name", "Dr. Maya Chen", "email", "maya.chen@demo-clinic.example"));
        if (created.statusCode() == 400) {
            // The prescriber exists but this file lost its id (no list endpoint to find it again): the
            // consultation needs one whose id is known, so the demo gets another address of hers.
            String another = "maya.chen+" + UUID.randomUUID().toString().substring(0, 8) + "@demo-clinic.example";
            created = call("POST", "/ops/v1/prescribers", Map.of("name", "Dr. Maya Chen", "email", another));
        }
        kept.setProperty("prescriberId", expect(created, 201).path("prescriber").path("id").asText());
    }

    /** Weekly hours, so the booking page has slots to offer; hours an operator set since are left as they are. */
    private void ensureAvailability(String prescriberId) {
        String path = "/ops/v1/prescribers/" + prescriberId + "/availability";
        if (call("GET", path, null).statusCode() != 200) {
            expect(call("PUT", path, AVAILABILITY), 200);
        }
    }

    /** The intake survey of the hosted survey page; one an operator changed since is left as it is. */
    private void ensureSurvey() {
        if (call("GET", "/ops/v1/surveys/" + SURVEY_ID, null).statusCode() != 200) {
            expect(call("PUT", "/ops/v1/surveys/" + SURVEY_ID, SURVEY), 200);
        }
    }

    /**
     * The booking link of the demo patient's consultation: the kept one while it still shows
     * something, else a new consultation request (the partner's, no drug yet) whose consultation the
     * demo prescriber requests (operations-api.md, "Consultations"), which issues the link.
     */
    private void ensureBookingLink(Properties kept) {
        String token = kept.getProperty("bookingToken");
        if (token != null && !token.isBlank()) {
            HttpResponse<String> booking = call("GET", "/ops/v1/bookings/" + token, null);
            if (usable(booking.statusCode(), booking.statusCode() == 200 ? expect(booking, 200) : JSON.nullNode())) {
                return;
            }
        }
        JsonNode created = expect(partnerCall("POST", "/v1/requests", kept.getProperty("apiKey"),
                Map.of("member", PATIENT, "caseNotes", "Demo consultation request (./stack): book a call with the link.")), 201);
        String requestId = created.path("requestId").asText();
        JsonNode outcome = expect(call("POST", "/ops/v1/requests/" + requestId + "/request-consultation",
                Map.of("prescriberId", kept.getProperty("prescriberId"))), 200);
        kept.setProperty("bookingRequestId", requestId);
        kept.setProperty("bookingToken", bookingToken(outcome.path("booking").path("bookingUrl").asText()));
    }

    /**
     * The demo prescription request the prescriber reviews in the console: the kept one while the
     * platform knows it ({@code GET /v1/requests/:id} with the demo partner's key), whatever its status
     * by now; else a new one of the demo patient (the partner's, like the consultation), one item of a
     * demo drug, {@code pending} and unclaimed.
     */
    private void ensureReviewRequest(Properties kept) {
        String id = kept.getProperty("reviewRequestId", "");
        if (id.matches("[0-9a-f-]{36}") && partnerCall("GET", "/v1/requests/" + id, kept.getProperty("apiKey"), null).statusCode() == 200) {
            return;
        }
        JsonNode created = expect(partnerCall("POST", "/v1/requests", kept.getProperty("apiKey"),
                Map.of("member", PATIENT, "items", List.of(REVIEW_ITEM),
                        "caseNotes", "Demo prescription request (./stack): review it in the console.")), 201);
        kept.setProperty("reviewRequestId", created.path("requestId").asText());
    }

    /**
     * The local account {@code account}: the kept one while it exists with the same email; else (none,
     * or its password not kept here) a new one with a new password (24 characters, 144 random bits),
     * kept in demo.properties. False when local accounts are off ({@code GET /ops/v1/accounts} 404: a
     * production deployment without {@code PLATFORM_IDENTITY_LOCAL_ACCOUNTS=true}).
     */
    private boolean ensureAccount(Properties kept, LocalAccount account, List<String> roles, String prescriberId) {
        HttpResponse<String> listed = call("GET", "/ops/v1/accounts", null);
        if (listed.statusCode() == 404) {
            return false;
        }
        JsonNode existing = null;
        for (JsonNode candidate : expect(listed, 200).path("accounts")) {
            if (candidate.path("email").asText().equalsIgnoreCase(account.email())) {
                existing = candidate;
            }
        }
        String password = kept.getProperty(account.key() + "Password");
        if (existing != null && password != null && existing.path("id").asText().equals(kept.getProperty(account.key() + "AccountId"))
                && (prescriberId == null || prescriberId.equals(existing.path("prescriberId").asText()))) {
            return true;
        }
        if (existing != null) {
            // Its password is not kept here (a new .stack/ over old data, or another prescriber): a new account.
            expect(call("DELETE", "/ops/v1/accounts/" + existing.path("id").asText(), null), 204, false);
        }
        byte[] random = new byte[18];
        RANDOM.nextBytes(random);
        password = java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(random);
        Map<String, Object> body = new java.util.HashMap<>(Map.of("email", account.email(), "name", account.name(),
                "roles", roles, "password", password));
        if (prescriberId != null) {
            body.put("prescriberId", prescriberId);
        }
        JsonNode created = expect(call("POST", "/ops/v1/accounts", body), 201);
        kept.setProperty(account.key() + "AccountId", created.path("account").path("id").asText());
        kept.setProperty(account.key() + "Email", account.email());
        kept.setProperty(account.key() + "Password", password);
        return true;
    }

    /** The sign-in lines ./stack prints: the first admin's and the demo prescriber's, or that local accounts are off. */
    static String signInLines(Properties kept, boolean accounts) {
        if (!accounts) {
            return "Local accounts:  off (production without PLATFORM_IDENTITY_LOCAL_ACCOUNTS=true)\n";
        }
        return "Admin sign-in:   " + kept.getProperty(ADMIN.key() + "Email") + "  " + kept.getProperty(ADMIN.key() + "Password")
                + "   (POST /ops/v1/sessions, then Authorization: Bearer <token>)\n"
                + "Prescriber sign-in: " + kept.getProperty(PRESCRIBER.key() + "Email") + "  "
                + kept.getProperty(PRESCRIBER.key() + "Password") + "   (the console, or POST /ops/v1/sessions)\n";
    }

    private HttpResponse<String> call(String method, String path, Object body) {
        return send(method, path, "x-ops-key", opsKey, body);
    }

    /** A call of the demo partner's server, with its API key. */
    private HttpResponse<String> partnerCall(String method, String path, String apiKey, Object body) {
        return send(method, path, "x-api-key", apiKey, body);
    }

    private HttpResponse<String> send(String method, String path, String keyHeader, String key, Object body) {
        try {
            HttpRequest.Builder request = HttpRequest.newBuilder(gateway.resolve(path))
                    .timeout(Duration.ofSeconds(15))
                    .header(keyHeader, key);
            if (body == null) {
                request.method(method, HttpRequest.BodyPublishers.noBody());
            } else {
                request.header("Content-Type", "application/json")
                        .method(method, HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
            }
            return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException("demo data: " + method + " " + path + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static JsonNode expect(HttpResponse<String> response, int status) {
        return expect(response, status, true);
    }

    private static JsonNode expect(HttpResponse<String> response, int status, boolean body) {
        if (response.statusCode() != status) {
            throw new IllegalStateException("demo data: " + response.request().method() + " " + response.request().uri()
                    + " answered " + response.statusCode() + " " + response.body());
        }
        if (!body) {
            return JSON.nullNode();
        }
        try {
            return JSON.readTree(response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Map<String, Object> drug(String id, String name, String description, List<Map<String, Object>> skus) {
        return Map.of("id", id, "name", name, "description", description, "classification", "non-controlled",
                "skus", skus, "pharmacy", Map.of("id", "sandbox-pharmacy", "method", "integration_a"));
    }

    /** An injectable pen: {@code volume} mL per pen at {@code mgPerMl}. */
    private static Map<String, Object> sku(String label, double volume, double mgPerMl) {
        return Map.of("label", label, "packageSize", volume, "active", true,
                "concentration", Map.of("value", mgPerMl, "activeUnit", "mg", "baseUnit", "mL"));
    }

    private static Properties load(Path file) {
        Properties properties = new Properties();
        if (Files.exists(file)) {
            try (var in = Files.newBufferedReader(file)) {
                properties.load(in);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return properties;
    }

    private static void store(Properties properties, Path file) {
        var out = new java.io.StringWriter();
        try {
            properties.store(out, "Demo credentials of the local stack (shown once by the platform, kept here for you)");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        AtomicFiles.write(file, out.toString(), true);
    }
}
