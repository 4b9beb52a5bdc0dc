package com.telemed.e2e;

import static com.telemed.e2e.WebhookPayloads.assertPayload;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.e2e.WebhookReceiver.Received;
import com.telemed.testkit.e2e.RunningPlatform;
import com.telemed.testkit.platform.PlatformService;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Intake surveys (issue 20; requests-service README, "Surveys") as an operator, a partner's server
 * and a partner's page in a browser drive them through the gateway, every service real: the
 * operator defines a survey for a drug; the partner looks it up; a browser-like client (the
 * publishable key and an allow-listed {@code Origin}) reads and submits it; the partner's receiver
 * gets {@code survey.completed}, signed, exactly the contract's payload; the partner reads the
 * response and creates the request with {@code v2SurveyResponseId}, whose {@code caseNotes} carry
 * the summary. Then the same for a returning member with a one-use token. Beside them the refusals
 * the gateway and requests-service answer on these surfaces, and the per-address submission limit
 * on a gateway replica with small limits.
 */
@ExtendWith(RunningPlatform.class)
class SurveysThroughGatewayIT {

    private static final Duration DELIVERED = Duration.ofSeconds(30);
    private static final String TIMESTAMP = "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z";
    private static final String UUID_PATTERN = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
    /** The shared e2e platform's embed limits (testkit RunningPlatform): never reached by these tests. */
    private static final String TEST_PLATFORM_POLICY = "\"address\";q=1000000;w=60, \"partner\";q=1000000;w=60";

    private RunningPlatform.Handle platform;

    /** A partner of the test's own, with its embed origin. */
    private record Partner(String id, String apiKey, String publishableKey, String origin) {
    }

    private RequestSpecification ops() {
        return given().baseUri(platform.gateway().toString()).header("x-ops-key", platform.opsKey()).contentType(ContentType.JSON);
    }

    private RequestSpecification as(Partner partner) {
        return given().baseUri(platform.gateway().toString()).header("x-api-key", partner.apiKey());
    }

    /** The partner's page in a browser: its publishable key, from its allow-listed origin. */
    private RequestSpecification browser(Partner partner) {
        return browser(platform.gateway().toString(), partner);
    }

    private static RequestSpecification browser(String gateway, Partner partner) {
        return given().baseUri(gateway).header("x-service-publishable-key", partner.publishableKey())
                .header("Origin", partner.origin());
    }

    /** A new partner allowing one https origin of its own for the embed API. */
    private Partner partner(String name) {
        JsonPath created = ops().body(Map.of("name", name + " " + UUID.randomUUID())).post("/ops/v1/partners")
                .then().statusCode(201).extract().jsonPath();
        String id = created.getString("partner.id");
        String origin = "https://shop-" + UUID.randomUUID().toString().substring(0, 8) + ".example";
        ops().body(Map.of("origins", List.of(origin))).put("/ops/v1/partners/" + id + "/embed-origins")
                .then().statusCode(200).body(equalTo("{\"origins\":[\"" + origin + "\"]}"));
        return new Partner(id, created.getString("apiKey"), created.getString("publishableKey"), origin);
    }

    private String webhook(Partner partner, WebhookReceiver receiver) {
        return ops().body(Map.of("url", receiver.url())).put("/ops/v1/partners/" + partner.id() + "/webhook")
                .then().statusCode(200).body("url", equalTo(receiver.url())).extract().path("secret");
    }

    private String drug() {
        String drugId = "srv-e2e-" + UUID.randomUUID().toString().substring(0, 8);
        ops().body("""
                        {"name": "Semaglutide E2E", "classification": "non-controlled",
                         "skus": [{"label": "0.25 mg", "active": true}], "pharmacy": {"id": "sandbox", "method": "none"}}""")
                .put("/ops/v1/drugs/" + drugId).then().statusCode(200);
        return drugId;
    }

    private static Map<String, Object> question(String id, String text, String type, boolean required, List<String> options,
                                                Object disqualifying) {
        Map<String, Object> question = new LinkedHashMap<>();
        question.put("id", id);
        question.put("text", text);
        question.put("type", type);
        if (options != null) {
            question.put("options", options);
        }
        question.put("required", required);
        if (disqualifying != null) {
            question.put("disqualifyWhen", Map.of("equals", disqualifying));
        }
        return question;
    }

    /** The intake: pregnant (disqualifies when true), goal (a choice), weight (disqualifies at 0), notes (optional). */
    private static List<Map<String, Object>> intakeQuestions() {
        return List.of(
                question("pregnant", "Are you pregnant?", "boolean", true, null, true),
                question("goal", "What is your goal?", "choice", true, List.of("lose", "maintain"), null),
                question("weight", "Your weight in pounds", "number", true, null, 0),
                question("notes", "Anything else?", "text", false, null, null));
    }

    /** As the browser reads them: no {@code disqualifyWhen}. */
    private static List<Map<String, Object>> browserQuestions() {
        List<Map<String, Object>> questions = new ArrayList<>();
        for (Map<String, Object> question : intakeQuestions()) {
            Map<String, Object> shown = new LinkedHashMap<>(question);
            shown.remove("disqualifyWhen");
            questions.add(shown);
        }
        return questions;
    }

    /** The operator's PUT through the gateway; checks the answer field by field and returns the survey's id. */
    private String defineSurvey(String drugId) {
        String surveyId = "intake-e2e-" + UUID.randomUUID().toString().substring(0, 8);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("title", "Weight care intake");
        body.put("drugIds", List.of(drugId));
        body.put("questions", intakeQuestions());
        JsonPath survey = ops().body(body).put("/ops/v1/surveys/" + surveyId).then().statusCode(200).extract().jsonPath();
        assertEquals(List.of("id", "title", "drugIds", "questions", "createdAt", "updatedAt"),
                List.copyOf(survey.getMap("survey").keySet()));
        assertEquals(surveyId, survey.getString("survey.id"));
        assertEquals("Weight care intake", survey.getString("survey.title"));
        assertEquals(List.of(drugId), survey.getList("survey.drugIds"));
        assertEquals(intakeQuestions(), survey.getList("survey.questions"));
        assertTrue(survey.getString("survey.createdAt").matches(TIMESTAMP), survey.getString("survey.createdAt"));
        assertEquals(survey.getString("survey.createdAt"), survey.getString("survey.updatedAt"));
        return surveyId;
    }

    private static Map<String, Object> submission(Map<String, Object> answers, Map<String, Object> contact) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("answers", answers);
        if (contact != null) {
            body.put("contact", contact);
        }
        return body;
    }

    private static Map<String, Object> answers(boolean pregnant, String goal, Object weight, String notes) {
        Map<String, Object> answers = new LinkedHashMap<>();
        answers.put("pregnant", pregnant);
        answers.put("goal", goal);
        answers.put("weight", weight);
        if (notes != null) {
            answers.put("notes", notes);
        }
        return answers;
    }

    private static Map<String, Object> contact(String firstName, String lastName, String email) {
        Map<String, Object> contact = new LinkedHashMap<>();
        contact.put("firstName", firstName);
        contact.put("lastName", lastName);
        contact.put("email", email);
        return contact;
    }

    /** A submission's answer, exactly {@code {"responseId":"<uuid>","qualified":<qualified>}}, from the allowed origin; its id. */
    private static String assertSubmitted(Response answer, Partner partner, boolean qualified) {
        assertEquals(201, answer.statusCode(), answer.asString());
        String responseId = answer.jsonPath().getString("responseId");
        assertTrue(responseId.matches(UUID_PATTERN), responseId);
        assertEquals("{\"responseId\":\"" + responseId + "\",\"qualified\":" + qualified + "}", answer.asString());
        assertEquals(partner.origin(), answer.header("Access-Control-Allow-Origin"));
        return responseId;
    }

    /** The one {@code survey.completed} of the response at the partner's receiver, signed with the partner's secret. */
    private static Received completed(WebhookReceiver receiver, String responseId, String secret) throws Exception {
        Received delivery = await("survey.completed of " + responseId).atMost(DELIVERED).pollInterval(Duration.ofMillis(50))
                .until(() -> receiver.ofEvent("survey.completed").stream()
                        .filter(post -> responseId.equals(post.json().path("responseId").asText())).toList(), posts -> !posts.isEmpty())
                .get(0);
        WebhookReceiver.assertSigned(delivery, secret);
        return delivery;
    }

    private Map<String, Object> inlineMember(String firstName, String lastName) {
        return Map.of("firstName", firstName, "lastName", lastName, "email", firstName.toLowerCase() + "." + UUID.randomUUID() + "@example.com",
                "dateOfBirth", "1985-03-14", "state", "VA",
                "address", Map.of("street1", "1 Langley Rd", "city", "Hampton", "state", "VA", "zipCode", "23665"));
    }

    private String caseNotes(Partner partner, String requestId) {
        return as(partner).get("/v1/requests/" + requestId).then().statusCode(200).extract().path("caseNotes");
    }

    /**
     * The issue's "Must show": the anonymous (initial) submission from the partner's page backs a
     * new member's request, then the returning member's (refill) submission with a one-use token
     * backs that member's next request; each reaches the partner's receiver as
     * {@code survey.completed} and reads back through {@code /v2/public/responses}. A disqualifying
     * answer is submitted too ({@code qualified: false}, no contact: no patient fields in the event).
     */
    @Test
    void anOperatorsSurveyIsSubmittedFromThePartnersPageAndBacksTheRequests(RunningPlatform.Handle platform) throws Exception {
        this.platform = platform;
        try (WebhookReceiver receiver = new WebhookReceiver((post, attempt) -> 204)) {
            Partner partner = partner("Survey E2E");
            String secret = webhook(partner, receiver);
            String drugId = drug();
            String surveyId = defineSurvey(drugId);
            // The operator reads back what they defined.
            ops().get("/ops/v1/surveys/" + surveyId).then().statusCode(200).body("survey.questions", equalTo(intakeQuestions()));

            // The partner's server finds the drug's survey and reads its definition, rules included.
            as(partner).queryParam("drugId", drugId).get("/v1/surveys/v2/lookup")
                    .then().statusCode(200).body(equalTo("{\"surveyId\":\"" + surveyId + "\"}"));
            as(partner).get("/v2/public/surveys/" + surveyId).then().statusCode(200)
                    .body("survey.id", equalTo(surveyId)).body("survey.drugIds", equalTo(List.of(drugId)))
                    .body("survey.questions", equalTo(intakeQuestions()));

            // The page: a preflight for its origin, then the definition without the rules, CORS for its origin.
            browser(partner).header("Access-Control-Request-Method", "POST")
                    .header("Access-Control-Request-Headers", "content-type, x-service-publishable-key")
                    .options("/v2/embed/surveys/" + surveyId + "/responses")
                    .then().statusCode(204)
                    .header("Access-Control-Allow-Origin", partner.origin())
                    .header("Access-Control-Allow-Methods", "GET, POST, PUT, DELETE, OPTIONS")
                    .header("Access-Control-Allow-Headers", "content-type, x-service-publishable-key")
                    .header("Access-Control-Max-Age", "86400");
            Response definition = browser(partner).get("/v2/embed/surveys/" + surveyId);
            definition.then().statusCode(200)
                    .header("Access-Control-Allow-Origin", partner.origin())
                    .header("Vary", "Origin")
                    .header("Access-Control-Expose-Headers", "X-Request-Id, RateLimit, RateLimit-Policy, Retry-After")
                    .body("survey.id", equalTo(surveyId)).body("survey.title", equalTo("Weight care intake"))
                    .body("survey.drugIds", equalTo(List.of(drugId)))
                    .body("survey.questions", equalTo(browserQuestions()));

            // The anonymous submission: 201 {responseId, qualified}, with the submission limits' headers.
            String email = "ada." + UUID.randomUUID() + "@example.com";
            Response submitted = browser(partner).contentType(ContentType.JSON)
                    .body(submission(answers(false, "lose", 182.5, "Walks daily"), contact("Ada", "Lovelace", email)))
                    .post("/v2/embed/surveys/" + surveyId + "/responses");
            String initialId = assertSubmitted(submitted, partner, true);
            assertEquals(TEST_PLATFORM_POLICY, submitted.header("RateLimit-Policy"));
            assertEquals("\"address\";r=999999;t=1", submitted.header("RateLimit"));

            Received initialEvent = completed(receiver, initialId, secret);
            assertPayload(initialEvent.json(), "event", "survey.completed", "responseId", initialId, "mode", "initial",
                    "qualified", true, "drugIds", List.of(drugId), "selectedDrugId", null, "memberId", null,
                    "patientName", "Ada Lovelace", "patientEmail", email);

            // The partner reads the response: answers as submitted, the contact, no member yet.
            String read = as(partner).get("/v2/public/responses/" + initialId).then().statusCode(200).extract().asString();
            String createdAt = JsonPath.from(read).getString("response.createdAt");
            assertTrue(createdAt.matches(TIMESTAMP), createdAt);
            assertEquals("{\"response\":{\"id\":\"" + initialId + "\",\"surveyId\":\"" + surveyId + "\",\"mode\":\"initial\","
                    + "\"memberId\":null,\"answers\":{\"pregnant\":false,\"goal\":\"lose\",\"weight\":182.5,\"notes\":\"Walks daily\"},"
                    + "\"contact\":{\"firstName\":\"Ada\",\"lastName\":\"Lovelace\",\"email\":\"" + email + "\"},\"qualified\":true,"
                    + "\"drugIds\":[\"" + drugId + "\"],\"createdAt\":\"" + createdAt + "\"}}", read);

            // The request for a new member, backed by the response: the partner's text, the separator line, the summary.
            Map<String, Object> create = new LinkedHashMap<>();
            create.put("member", inlineMember("Ada", "Lovelace"));
            create.put("items", List.of(Map.of("drugId", drugId, "dosage", "0.25 mg")));
            create.put("caseNotes", "Prefers an evening call");
            create.put("v2SurveyResponseId", initialId);
            JsonPath initialRequest = as(partner).contentType(ContentType.JSON).body(create).post("/v1/requests")
                    .then().statusCode(201).extract().jsonPath();
            String requestId = initialRequest.getString("requestId");
            String memberId = initialRequest.getString("memberId");
            assertEquals("Prefers an evening call\n---\nAre you pregnant?: No\nWhat is your goal?: lose\n"
                    + "Your weight in pounds: 182.5\nAnything else?: Walks daily", caseNotes(partner, requestId));
            // The response now names the request's member; it backs that one request only.
            as(partner).get("/v2/public/responses/" + initialId).then().statusCode(200).body("response.memberId", equalTo(memberId));
            Map<String, Object> again = new LinkedHashMap<>();
            again.put("memberId", memberId);
            again.put("items", List.of(Map.of("drugId", drugId, "dosage", "0.25 mg")));
            again.put("v2SurveyResponseId", initialId);
            as(partner).contentType(ContentType.JSON).body(again).post("/v1/requests")
                    .then().statusCode(400).body(equalTo("{\"error\":\"v2SurveyResponseId has already been used for a request\"}"));

            // The returning member: a token for them, the same browser definition by token, one submission.
            JsonPath minted = as(partner).contentType(ContentType.JSON).body(Map.of("memberId", memberId, "surveyId", surveyId))
                    .post("/v1/surveys/v2/tokens").then().statusCode(201).extract().jsonPath();
            String token = minted.getString("token");
            assertTrue(token.matches("[A-Za-z0-9_-]{43}"), token);
            assertEquals(List.of("token", "expiresAt"), List.copyOf(minted.getMap("$").keySet()));
            assertTrue(minted.getString("expiresAt").matches(TIMESTAMP), minted.getString("expiresAt"));
            Instant expiresAt = Instant.parse(minted.getString("expiresAt"));
            Instant dayAhead = Instant.now().plus(Duration.ofHours(24));
            assertTrue(expiresAt.isAfter(dayAhead.minusSeconds(60)) && !expiresAt.isAfter(dayAhead), expiresAt + " vs " + dayAhead);
            browser(partner).queryParam("token", token).get("/v2/embed/by-token/survey")
                    .then().statusCode(200).header("Access-Control-Allow-Origin", partner.origin())
                    .body(equalTo(definition.asString()));
            String refillEmail = "ada.king." + UUID.randomUUID() + "@example.com";
            String refillId = assertSubmitted(browser(partner).contentType(ContentType.JSON).queryParam("token", token)
                    .body(submission(answers(false, "maintain", 176, null), contact("Ada", "King", refillEmail)))
                    .post("/v2/embed/by-token/responses"), partner, true);
            Received refillEvent = completed(receiver, refillId, secret);
            // The contact section's name, not the member record's (Ada Lovelace).
            assertPayload(refillEvent.json(), "event", "survey.completed", "responseId", refillId, "mode", "refill",
                    "qualified", true, "drugIds", List.of(drugId), "selectedDrugId", null, "memberId", memberId,
                    "patientName", "Ada King", "patientEmail", refillEmail);
            // Used: both by-token calls refuse it now.
            browser(partner).contentType(ContentType.JSON).queryParam("token", token)
                    .body(submission(answers(false, "maintain", 176, null), null)).post("/v2/embed/by-token/responses")
                    .then().statusCode(401).body(equalTo("{\"error\":\"Invalid survey token\"}"));
            browser(partner).queryParam("token", token).get("/v2/embed/by-token/survey")
                    .then().statusCode(401).body(equalTo("{\"error\":\"Invalid survey token\"}"));
            JsonPath refill = as(partner).get("/v2/public/responses/" + refillId).then().statusCode(200).extract().jsonPath();
            assertEquals("refill", refill.getString("response.mode"));
            assertEquals(memberId, refill.getString("response.memberId"));
            assertEquals(Map.of("pregnant", false, "goal", "maintain", "weight", 176), refill.getMap("response.answers"));

            // The member's next request, backed by the refill response alone: the summary is the notes.
            Map<String, Object> next = new LinkedHashMap<>();
            next.put("memberId", memberId);
            next.put("items", List.of(Map.of("drugId", drugId, "dosage", "0.25 mg")));
            next.put("v2SurveyResponseId", refillId);
            JsonPath refillRequest = as(partner).contentType(ContentType.JSON).body(next).post("/v1/requests")
                    .then().statusCode(201).extract().jsonPath();
            assertEquals(memberId, refillRequest.getString("memberId"));
            assertEquals("Are you pregnant?: No\nWhat is your goal?: maintain\nYour weight in pounds: 176",
                    caseNotes(partner, refillRequest.getString("requestId")));

            // A disqualifying answer: qualified false; no contact, so no patient fields.
            String disqualifiedId = assertSubmitted(browser(partner).contentType(ContentType.JSON)
                    .body(submission(answers(true, "lose", 150, null), null))
                    .post("/v2/embed/surveys/" + surveyId + "/responses"), partner, false);
            assertPayload(completed(receiver, disqualifiedId, secret).json(), "event", "survey.completed",
                    "responseId", disqualifiedId, "mode", "initial", "qualified", false, "drugIds", List.of(drugId),
                    "selectedDrugId", null, "memberId", null);
            as(partner).get("/v2/public/responses/" + disqualifiedId).then().statusCode(200)
                    .body("response.qualified", equalTo(false)).body("response.contact", equalTo(null));

            // Three submissions, three events, nothing else (creating requests sends no webhook).
            await("no further webhook").during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5))
                    .until(() -> receiver.received().size() == 3);
            assertEquals(List.of(initialId, refillId, disqualifiedId).stream().sorted().toList(),
                    receiver.ofEvent("survey.completed").stream().map(post -> post.json().path("responseId").asText()).sorted().toList());
        }
    }

    /**
     * What the gateway refuses on the embed surface (an origin the partner does not allow, a bad
     * publishable key, a preflight from an origin no partner allows) and what requests-service
     * refuses through it (partner B's key on partner A's response), each with its exact error.
     */
    @Test
    void refusalsOnTheSurveySurfaces(RunningPlatform.Handle platform) throws SQLException {
        this.platform = platform;
        Partner a = partner("Survey E2E A");
        Partner b = partner("Survey E2E B");
        String drugId = drug();
        String surveyId = defineSurvey(drugId);
        String responses = "/v2/embed/surveys/" + surveyId + "/responses";
        Map<String, Object> body = submission(answers(false, "lose", 180, null), null);

        // B's origin with A's key, an unknown origin, no origin: 403; no CORS grant.
        for (String origin : new String[] {b.origin(), "https://evil-" + UUID.randomUUID().toString().substring(0, 8) + ".example"}) {
            Response refused = given().baseUri(platform.gateway().toString()).header("x-service-publishable-key", a.publishableKey())
                    .header("Origin", origin).get("/v2/embed/surveys/" + surveyId);
            refused.then().statusCode(403).body(equalTo("{\"error\":\"Origin not allowed\"}"));
            assertNull(refused.header("Access-Control-Allow-Origin"));
        }
        given().baseUri(platform.gateway().toString()).header("x-service-publishable-key", a.publishableKey())
                .contentType(ContentType.JSON).body(body).post(responses)
                .then().statusCode(403).body(equalTo("{\"error\":\"Origin not allowed\"}"));
        // A key nobody has, and none at all: 401.
        given().baseUri(platform.gateway().toString()).header("x-service-publishable-key", "pk_" + "0".repeat(32))
                .header("Origin", a.origin()).get("/v2/embed/surveys/" + surveyId)
                .then().statusCode(401).body(equalTo("{\"error\":\"Invalid publishable key\"}"));
        given().baseUri(platform.gateway().toString()).header("Origin", a.origin()).contentType(ContentType.JSON).body(body)
                .post(responses).then().statusCode(401).body(equalTo("{\"error\":\"Invalid publishable key\"}"));
        // A's API key is not a publishable key.
        given().baseUri(platform.gateway().toString()).header("x-service-publishable-key", a.apiKey())
                .header("Origin", a.origin()).get("/v2/embed/surveys/" + surveyId)
                .then().statusCode(401).body(equalTo("{\"error\":\"Invalid publishable key\"}"));
        // A token nobody minted.
        browser(a).queryParam("token", "x".repeat(43)).get("/v2/embed/by-token/survey")
                .then().statusCode(401).body(equalTo("{\"error\":\"Invalid survey token\"}"));

        // requests-service's refusals reach the page with the CORS grant, so its script can read them.
        Response unknown = browser(a).get("/v2/embed/surveys/no-such-survey");
        unknown.then().statusCode(404).body(equalTo("{\"error\":\"Survey not found\"}"));
        assertEquals(a.origin(), unknown.header("Access-Control-Allow-Origin"));
        Map<String, Object> unanswered = new LinkedHashMap<>(answers(false, "lose", 180, null));
        unanswered.remove("pregnant");
        unanswered.put("mood", "fine");
        Response issues = browser(a).contentType(ContentType.JSON).body(submission(unanswered, null)).post(responses);
        assertEquals(400, issues.statusCode(), issues.asString());
        assertEquals(a.origin(), issues.header("Access-Control-Allow-Origin"));
        Map<String, Object> required = new LinkedHashMap<>();
        required.put("code", "invalid_type");
        required.put("expected", "boolean");
        required.put("received", "undefined");
        required.put("path", List.of("answers", "pregnant"));
        required.put("message", "Required");
        Map<String, Object> unknownQuestion = new LinkedHashMap<>();
        unknownQuestion.put("code", "custom");
        unknownQuestion.put("path", List.of("answers", "mood"));
        unknownQuestion.put("message", "Unknown question");
        assertEquals(List.of(required, unknownQuestion), issues.jsonPath().getList("error"));
        // None of the refused submissions was stored.
        assertEquals(0, responseRows(a.id(), surveyId));
        // No survey covers a drug nobody surveyed.
        as(a).queryParam("drugId", drug()).get("/v1/surveys/v2/lookup")
                .then().statusCode(404).body(equalTo("{\"error\":\"Survey not found\"}"));

        // Preflights: an allowed origin is answered, one no partner allows is refused.
        browser(a).header("Access-Control-Request-Method", "GET").options("/v2/embed/surveys/" + surveyId)
                .then().statusCode(204).header("Access-Control-Allow-Origin", a.origin());
        Response preflight = given().baseUri(platform.gateway().toString())
                .header("Origin", "https://evil-" + UUID.randomUUID().toString().substring(0, 8) + ".example")
                .header("Access-Control-Request-Method", "POST").options(responses);
        preflight.then().statusCode(403).body(equalTo("{\"error\":\"Origin not allowed\"}"));
        assertNull(preflight.header("Access-Control-Allow-Origin"));
        assertNull(preflight.header("Access-Control-Allow-Methods"));

        // A's response: A's to read and to back a request with; B's key gets 404 and 400.
        String responseId = assertSubmitted(browser(a).contentType(ContentType.JSON).body(body).post(responses), a, true);
        as(b).get("/v2/public/responses/" + responseId)
                .then().statusCode(404).body(equalTo("{\"error\":\"Survey response not found\"}"));
        String bMember = as(b).contentType(ContentType.JSON).body(inlineMember("Alan", "Turing")).post("/v1/members")
                .then().statusCode(201).extract().path("member.id");
        Map<String, Object> create = new LinkedHashMap<>();
        create.put("memberId", bMember);
        create.put("items", List.of(Map.of("drugId", drugId, "dosage", "0.25 mg")));
        create.put("caseNotes", "Not B's");
        create.put("v2SurveyResponseId", responseId);
        as(b).contentType(ContentType.JSON).body(create).post("/v1/requests")
                .then().statusCode(400).body(equalTo("{\"error\":\"v2SurveyResponseId does not belong to this partner\"}"));
        as(b).get("/v1/requests").then().statusCode(200).body("requests", equalTo(List.of()));
        // Still free for A, and the one response stored.
        as(a).get("/v2/public/responses/" + responseId).then().statusCode(200).body("response.memberId", equalTo(null));
        assertEquals(1, responseRows(a.id(), surveyId));
    }

    /**
     * A gateway replica with a per-address limit of 2 a window: the third submission from one
     * address is answered {@code 429} with {@code Retry-After} and the RateLimit fields and never
     * reaches requests-service (no response row, no {@code survey.completed}); the same address
     * submitting for another partner is not limited by it.
     */
    @Test
    void theThirdSubmissionFromOneAddressIsRefusedAtTheGateway(RunningPlatform.Handle platform) throws Exception {
        this.platform = platform;
        String replica = platform.platform().startReplica(PlatformService.GATEWAY, Map.of(
                "GATEWAY_EMBED_LIMITS_PER_ADDRESS", "2", "GATEWAY_EMBED_LIMITS_PER_PARTNER", "100",
                "GATEWAY_EMBED_LIMITS_WINDOW", "1h")).toString();
        String policy = "\"address\";q=2;w=3600, \"partner\";q=100;w=3600";
        try (WebhookReceiver receiver = new WebhookReceiver((post, attempt) -> 204)) {
            Partner partner = partner("Survey Limits E2E");
            Partner other = partner("Survey Limits E2E Other");
            String secret = webhook(partner, receiver);
            String surveyId = defineSurvey(drug());
            String responses = "/v2/embed/surveys/" + surveyId + "/responses";
            Map<String, Object> body = submission(answers(false, "lose", 180, null), null);

            // Two allowed: the address is the policy nearest its end (1 then 0 left; a token back every 1,800 s).
            Response first = browser(replica, partner).contentType(ContentType.JSON).body(body).post(responses);
            String firstId = assertSubmitted(first, partner, true);
            assertEquals(policy, first.header("RateLimit-Policy"));
            assertEquals("\"address\";r=1;t=1800", first.header("RateLimit"));
            Response second = browser(replica, partner).contentType(ContentType.JSON).body(body).post(responses);
            String secondId = assertSubmitted(second, partner, true);
            assertEquals(policy, second.header("RateLimit-Policy"));
            assertEquals("\"address\";r=0;t=3600", second.header("RateLimit"));

            // The third: 429 at the gateway, readable by the page's script.
            Response third = browser(replica, partner).contentType(ContentType.JSON).body(body).post(responses);
            third.then().statusCode(429).body(equalTo("{\"error\":\"Too Many Requests\"}"))
                    .header("Access-Control-Allow-Origin", partner.origin())
                    .header("Access-Control-Expose-Headers", "X-Request-Id, RateLimit, RateLimit-Policy, Retry-After");
            long retryAfter = Long.parseLong(third.header("Retry-After"));
            // The next token is due 1,800 s after the first submission, less the time since.
            assertTrue(retryAfter > 1_700 && retryAfter <= 1_800, "Retry-After " + retryAfter);
            assertEquals(policy, third.header("RateLimit-Policy"));
            assertEquals("\"address\";r=0;t=" + retryAfter, third.header("RateLimit"));

            // Definitions are not limited; another partner's visitor at the same address is not either.
            browser(replica, partner).get("/v2/embed/surveys/" + surveyId).then().statusCode(200);
            Response elsewhere = browser(replica, other).contentType(ContentType.JSON).body(body).post(responses);
            assertSubmitted(elsewhere, other, true);
            assertEquals("\"address\";r=1;t=1800", elsewhere.header("RateLimit"));

            // requests-service saw two of the partner's submissions: two rows, two events, no third.
            assertEquals(2, responseRows(partner.id(), surveyId));
            completed(receiver, firstId, secret);
            completed(receiver, secondId, secret);
            await("no third survey.completed").during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5))
                    .until(() -> receiver.received().size() == 2);
            assertEquals(2, responseRows(partner.id(), surveyId));
        }
    }

    /** The partner's rows of the survey in requests-service's {@code survey_responses}. */
    private long responseRows(String partnerId, String surveyId) throws SQLException {
        var postgres = platform.infrastructure().postgres();
        try (Connection connection = DriverManager.getConnection(postgres.jdbcUrl(PlatformService.REQUESTS.database()),
                postgres.username(), postgres.password());
             PreparedStatement count = connection.prepareStatement(
                     "SELECT count(*) FROM survey_responses WHERE partner_id = ? AND survey_id = ?")) {
            count.setString(1, partnerId);
            count.setString(2, surveyId);
            try (ResultSet rows = count.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }
}
