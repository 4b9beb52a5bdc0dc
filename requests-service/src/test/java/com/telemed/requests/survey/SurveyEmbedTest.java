package com.telemed.requests.survey;

import static com.telemed.requests.request.RequestFixtures.error;
import static com.telemed.requests.request.RequestFixtures.issue;
import static com.telemed.requests.survey.SurveyFixtures.answers;
import static com.telemed.requests.survey.SurveyFixtures.as;
import static com.telemed.requests.survey.SurveyFixtures.contact;
import static com.telemed.requests.survey.SurveyFixtures.defineIntake;
import static com.telemed.requests.survey.SurveyFixtures.events;
import static com.telemed.requests.survey.SurveyFixtures.qualifying;
import static com.telemed.requests.survey.SurveyFixtures.submission;
import static com.telemed.requests.survey.SurveyFixtures.submit;
import static com.telemed.requests.survey.SurveyFixtures.submitWithToken;
import static com.telemed.requests.survey.SurveyFixtures.submitted;
import static com.telemed.requests.survey.SurveyFixtures.surveyOfToken;
import static com.telemed.requests.survey.SurveyFixtures.token;
import static com.telemed.testkit.quarkus.ServiceDatabase.count;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.telemed.requests.FakeNeighboursResource;
import com.telemed.requests.MovableClock;
import com.telemed.requests.PartnerWithDrugAndMember;
import com.telemed.requests.request.RequestFixtures;
import com.telemed.testkit.quarkus.InfrastructureResource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The browser's survey calls ({@code /v2/embed}; the gateway checked the publishable key and the
 * origin and forwards the partner): the definition, anonymous and returning-member submissions,
 * the answers checked against the definition, and {@code survey.completed} exactly as
 * partner-api.md gives it.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(FakeNeighboursResource.class)
class SurveyEmbedTest extends PartnerWithDrugAndMember {

    static final ObjectMapper JSON = new ObjectMapper();

    String surveyId;

    @BeforeEach
    void survey() {
        MovableClock.reset();
        surveyId = defineIntake(drugId);
    }

    @AfterEach
    void clock() {
        MovableClock.reset();
    }

    private long responses() {
        return count("SELECT count(*) FROM survey_responses WHERE survey_id = ?", surveyId);
    }

    /** The definition without its disqualifyWhen rules, as the browser reads it. */
    private Map<String, Object> browsersDefinition() {
        Map<String, Object> operators = given().get("/ops/v1/surveys/" + surveyId).then().statusCode(200).extract().jsonPath().getMap("");
        @SuppressWarnings("unchecked")
        Map<String, Object> survey = new LinkedHashMap<>((Map<String, Object>) operators.get("survey"));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> questions = ((List<Map<String, Object>>) survey.get("questions")).stream().map(question -> {
            Map<String, Object> copy = new LinkedHashMap<>(question);
            copy.remove("disqualifyWhen");
            return copy;
        }).toList();
        survey.put("questions", questions);
        return Map.of("survey", survey);
    }

    /** The expected survey.completed envelope of a response, with the event's own id and time. */
    private Map<String, Object> completed(JsonNode envelope, String responseId, String mode, boolean qualified, String member,
                                          Map<String, Object> contact) {
        String at = envelope.path("occurredAt").asText();
        Map<String, Object> webhook = new LinkedHashMap<>();
        webhook.put("event", "survey.completed");
        webhook.put("responseId", responseId);
        webhook.put("mode", mode);
        webhook.put("qualified", qualified);
        webhook.put("drugIds", List.of(drugId));
        webhook.put("selectedDrugId", null);
        webhook.put("memberId", member);
        if (contact != null) {
            webhook.put("patientName", contact.get("firstName") + " " + contact.get("lastName"));
            webhook.put("patientEmail", contact.get("email"));
        }
        webhook.put("timestamp", at);
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("responseId", responseId);
        data.put("surveyId", surveyId);
        data.put("mode", mode);
        data.put("memberId", member);
        data.put("qualified", qualified);
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("id", envelope.path("id").asText());
        expected.put("type", "survey.completed");
        expected.put("partnerId", partner);
        expected.put("occurredAt", at);
        expected.put("subject", member == null ? Map.of() : Map.of("memberId", member));
        expected.put("data", data);
        expected.put("webhook", webhook);
        return expected;
    }

    /** Exact, key order included (the webhook's body is sent as it is written). */
    private void assertEnvelope(Map<String, Object> expected, JsonNode actual) {
        assertEquals(JSON.valueToTree(expected).toString(), actual.toString());
        assertTrue(actual.path("occurredAt").asText().matches(SurveyFixtures.TIMESTAMP), actual.toString());
    }

    // --- definition ---

    @Test
    void theBrowserReadsTheDefinitionWithoutItsRules() {
        Map<String, Object> read = as(partner).get("/v2/embed/surveys/" + surveyId).then().statusCode(200).extract().jsonPath().getMap("");
        assertEquals(browsersDefinition(), read);
        assertFalse(as(partner).get("/v2/embed/surveys/" + surveyId).asString().contains("disqualifyWhen"));
        as(partner).get("/v2/embed/surveys/" + SurveyFixtures.newSurveyId()).then().statusCode(404)
                .body("", equalTo(error("Survey not found")));
        given().get("/v2/embed/surveys/" + surveyId).then().statusCode(401).body("", equalTo(error("Invalid publishable key")));
    }

    // --- anonymous submissions ---

    @Test
    void anAnonymousSubmissionQualifiesAndEmitsSurveyCompletedWithTheContact() {
        Map<String, Object> contact = contact("Ada", "Lovelace", "ada+" + UUID.randomUUID() + "@example.com");
        Map<String, Object> answer = submit(partner, surveyId, submission(qualifying(), contact)).then().statusCode(201)
                .extract().jsonPath().getMap("");
        String responseId = (String) answer.get("responseId");
        assertEquals(List.of("responseId", "qualified"), List.copyOf(answer.keySet()));
        assertEquals(Map.of("responseId", responseId, "qualified", true), answer);
        assertTrue(UUID.fromString(responseId).toString().equals(responseId));

        List<JsonNode> events = events(responseId, 1);
        assertEnvelope(completed(events.get(0), responseId, "initial", true, null, contact), events.get(0));
    }

    @Test
    void aDisqualifyingAnswerIsNotQualifiedAndNoContactMeansNoPatientFields() {
        String responseId = submit(partner, surveyId, submission(answers("pregnant", true, "goal", "lose", "weight", 150), null))
                .then().statusCode(201).body("qualified", equalTo(false)).extract().path("responseId");
        JsonNode event = events(responseId, 1).get(0);
        assertEnvelope(completed(event, responseId, "initial", false, null, null), event);
        assertTrue(event.path("webhook").path("patientName").isMissingNode());

        // A number disqualifies by value: 0.0 is 0.
        submit(partner, surveyId, submission(answers("pregnant", false, "goal", "maintain", "weight", 0.0), null))
                .then().statusCode(201).body("qualified", equalTo(false));
        // An optional question may be left out or sent as null.
        Map<String, Object> withNull = new LinkedHashMap<>(qualifying());
        withNull.put("notes", null);
        submit(partner, surveyId, submission(withNull, null)).then().statusCode(201).body("qualified", equalTo(true));
    }

    /** Issue #38: a contact's name reaches mails and pages; a line break or other control character there is refused. */
    @Test
    void aContactNameWithControlCharactersIsRefused() {
        Map<String, Object> contact = contact("Ada\nBcc: x@evil.example", "Love\u2028lace", "ada@example.com");
        submit(partner, surveyId, submission(qualifying(), contact)).then().statusCode(400).body("error", equalTo(List.of(
                issue("custom", List.of("contact", "firstName"), "Invalid character"),
                issue("custom", List.of("contact", "lastName"), "Invalid character"))));
    }

    @Test
    void answersAreCheckedAgainstTheDefinitionEveryQuestionNamedAndNothingStored() {
        Map<String, Object> wrong = new LinkedHashMap<>();
        wrong.put("pregnant", "no");
        wrong.put("goal", "gain");
        wrong.put("notes", 12);
        wrong.put("height", 170);
        wrong.put("extra", true);
        Map<String, Object> contact = contact("", "Lovelace", "not-an-email");
        submit(partner, surveyId, submission(wrong, contact)).then().statusCode(400).body("error", equalTo(List.of(
                issue("invalid_type", List.of("answers", "pregnant"), "Expected boolean, received string",
                        "expected", "boolean", "received", "string"),
                issue("invalid_enum_value", List.of("answers", "goal"), "Invalid enum value. Expected 'lose' | 'maintain', received 'gain'",
                        "received", "gain", "options", List.of("lose", "maintain")),
                issue("invalid_type", List.of("answers", "weight"), "Required", "expected", "number", "received", "undefined"),
                issue("invalid_type", List.of("answers", "notes"), "Expected string, received number",
                        "expected", "string", "received", "number"),
                issue("custom", List.of("answers", "height"), "Unknown question"),
                issue("custom", List.of("answers", "extra"), "Unknown question"),
                issue("too_small", List.of("contact", "firstName"), "String must contain at least 1 character(s)",
                        "minimum", 1, "type", "string", "inclusive", true, "exact", false),
                issue("invalid_string", List.of("contact", "email"), "Invalid email", "validation", "email"))));

        submit(partner, surveyId, submission(answers("pregnant", false, "goal", "lose", "weight", "180", "notes", ""), null))
                .then().statusCode(400).body("error", equalTo(List.of(
                        issue("invalid_type", List.of("answers", "weight"), "Expected number, received string",
                                "expected", "number", "received", "string"),
                        issue("too_small", List.of("answers", "notes"), "String must contain at least 1 character(s)",
                                "minimum", 1, "type", "string", "inclusive", true, "exact", false))));
        submit(partner, surveyId, submission(answers("pregnant", null, "goal", "lose", "weight", 1_000_001), null))
                .then().statusCode(400).body("error", equalTo(List.of(
                        issue("invalid_type", List.of("answers", "pregnant"), "Expected boolean, received null",
                                "expected", "boolean", "received", "null"),
                        issue("too_big", List.of("answers", "weight"), "Number must be less than or equal to 1000000",
                                "maximum", 1_000_000, "type", "number", "inclusive", true, "exact", false))));
        as(partner).contentType("application/json").body("{}").post("/v2/embed/surveys/" + surveyId + "/responses")
                .then().statusCode(400).body("error", equalTo(List.of(
                        issue("invalid_type", List.of("answers"), "Required", "expected", "object", "received", "undefined"))));
        as(partner).contentType("application/json").body(Map.of("answers", List.of(true), "contact", "Ada"))
                .post("/v2/embed/surveys/" + surveyId + "/responses").then().statusCode(400).body("error", equalTo(List.of(
                        issue("invalid_type", List.of("answers"), "Expected object, received array", "expected", "object",
                                "received", "array"),
                        issue("invalid_type", List.of("contact"), "Expected object, received string", "expected", "object",
                                "received", "string"))));
        Map<String, Object> partial = new LinkedHashMap<>();
        partial.put("email", "ada@example.com");
        submit(partner, surveyId, submission(qualifying(), partial)).then().statusCode(400).body("error", equalTo(List.of(
                issue("invalid_type", List.of("contact", "firstName"), "Required", "expected", "string", "received", "undefined"),
                issue("invalid_type", List.of("contact", "lastName"), "Required", "expected", "string", "received", "undefined"))));
        assertEquals(0, responses());
    }

    @Test
    void anUnknownSurveyOrNoPartnerIsRefused() {
        submit(partner, SurveyFixtures.newSurveyId(), submission(qualifying(), null)).then().statusCode(404)
                .body("", equalTo(error("Survey not found")));
        given().contentType("application/json").body(submission(qualifying(), null))
                .post("/v2/embed/surveys/" + surveyId + "/responses").then().statusCode(401)
                .body("", equalTo(error("Invalid publishable key")));
        assertEquals(0, responses());
    }

    // --- returning members' tokens ---

    @Test
    void aTokenReadsItsSurveyAndSubmitsOnceForItsMemberAsARefill() {
        String token = token(partner, memberId, surveyId);
        Map<String, Object> read = surveyOfToken(partner, token).then().statusCode(200).extract().jsonPath().getMap("");
        assertEquals(browsersDefinition(), read);

        String responseId = submitWithToken(partner, token, Map.of("answers", qualifying())).then().statusCode(201)
                .body("qualified", equalTo(true)).extract().path("responseId");
        JsonNode event = events(responseId, 1).get(0);
        // No contact sent: no patientName or patientEmail (the contract: from the contact section).
        assertEnvelope(completed(event, responseId, "refill", true, memberId, null), event);
        as(partner).get("/v2/public/responses/" + responseId).then().statusCode(200)
                .body("response.mode", equalTo("refill"))
                .body("response.memberId", equalTo(memberId))
                .body("response.contact", equalTo(null));

        // One submission per token: afterwards it is spent for both calls.
        submitWithToken(partner, token, Map.of("answers", qualifying())).then().statusCode(401)
                .body("", equalTo(error("Invalid survey token")));
        surveyOfToken(partner, token).then().statusCode(401).body("", equalTo(error("Invalid survey token")));
        assertEquals(1, responses());
    }

    @Test
    void aTokenSubmissionWithContactCarriesItAndBadAnswersLeaveTheTokenUnused() {
        String token = token(partner, memberId, surveyId);
        submitWithToken(partner, token, Map.of("answers", answers("pregnant", "no"))).then().statusCode(400)
                .body("error.path", equalTo(List.of(List.of("answers", "pregnant"), List.of("answers", "goal"),
                        List.of("answers", "weight"))));
        Map<String, Object> contact = contact("Grace", "Hopper", "grace@example.com");
        String responseId = submitWithToken(partner, token, submission(answers("pregnant", true, "goal", "lose", "weight", 170), contact))
                .then().statusCode(201).body("qualified", equalTo(false)).extract().path("responseId");
        JsonNode event = events(responseId, 1).get(0);
        assertEnvelope(completed(event, responseId, "refill", false, memberId, contact), event);
    }

    @Test
    void anExpiredUnknownMissingOrAnotherPartnersTokenIsInvalid() {
        String token = token(partner, memberId, surveyId);
        MovableClock.advance(Duration.ofHours(24).minusMinutes(1));
        surveyOfToken(partner, token).then().statusCode(200);
        MovableClock.advance(Duration.ofMinutes(1));
        surveyOfToken(partner, token).then().statusCode(401).body("", equalTo(error("Invalid survey token")));
        submitWithToken(partner, token, Map.of("answers", qualifying())).then().statusCode(401)
                .body("", equalTo(error("Invalid survey token")));
        MovableClock.reset();

        String fresh = token(partner, memberId, surveyId);
        String other = RequestFixtures.newPartner();
        surveyOfToken(other, fresh).then().statusCode(401).body("", equalTo(error("Invalid survey token")));
        submitWithToken(other, fresh, Map.of("answers", qualifying())).then().statusCode(401)
                .body("", equalTo(error("Invalid survey token")));
        surveyOfToken(partner, "no-such-token").then().statusCode(401).body("", equalTo(error("Invalid survey token")));
        as(partner).get("/v2/embed/by-token/survey").then().statusCode(401).body("", equalTo(error("Invalid survey token")));
        as(partner).contentType("application/json").body(Map.of("answers", qualifying())).post("/v2/embed/by-token/responses")
                .then().statusCode(401).body("", equalTo(error("Invalid survey token")));
        assertEquals(0, responses());
        // Still good for its own partner.
        submitWithToken(partner, fresh, Map.of("answers", qualifying())).then().statusCode(201);
    }

    @Test
    void theHostedPagesLookupNamesTheTokensPartnerWhileTheTokenIsUsable() {
        String token = token(partner, memberId, surveyId);
        given().queryParam("token", token).get("/internal/survey-tokens").then().statusCode(200)
                .body("", equalTo(Map.of("partnerId", partner)));
        given().queryParam("token", "no-such-token").get("/internal/survey-tokens").then().statusCode(401)
                .body("", equalTo(error("Invalid survey token")));
        given().get("/internal/survey-tokens").then().statusCode(401).body("", equalTo(error("Invalid survey token")));

        submitWithToken(partner, token, Map.of("answers", qualifying())).then().statusCode(201);
        given().queryParam("token", token).get("/internal/survey-tokens").then().statusCode(401)
                .body("", equalTo(error("Invalid survey token")));

        String expiring = token(partner, memberId, surveyId);
        MovableClock.advance(Duration.ofHours(24));
        try {
            given().queryParam("token", expiring).get("/internal/survey-tokens").then().statusCode(401)
                    .body("", equalTo(error("Invalid survey token")));
        } finally {
            MovableClock.reset();
        }
    }

    @Test
    void concurrentSubmissionsWithOneTokenMakeOneResponse() throws Exception {
        String token = token(partner, memberId, surveyId);
        List<Integer> statuses = new java.util.ArrayList<>(com.telemed.testkit.concurrent.Parallel.map(5, List.of(1, 2, 3, 4, 5),
                index -> submitWithToken(partner, token, Map.of("answers", qualifying())).statusCode()));
        statuses.sort(null);
        assertEquals(List.of(201, 401, 401, 401, 401), statuses);
        assertEquals(1, responses());
    }
}
