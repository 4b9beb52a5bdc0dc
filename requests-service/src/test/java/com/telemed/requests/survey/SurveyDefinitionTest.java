package com.telemed.requests.survey;

import static com.telemed.requests.request.RequestFixtures.error;
import static com.telemed.requests.request.RequestFixtures.issue;
import static com.telemed.requests.survey.SurveyFixtures.definition;
import static com.telemed.requests.survey.SurveyFixtures.disqualifying;
import static com.telemed.requests.survey.SurveyFixtures.intakeQuestions;
import static com.telemed.requests.survey.SurveyFixtures.newSurveyId;
import static com.telemed.requests.survey.SurveyFixtures.put;
import static com.telemed.requests.survey.SurveyFixtures.question;
import static com.telemed.requests.survey.SurveyFixtures.withOptions;
import static com.telemed.testkit.quarkus.ServiceDatabase.count;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.requests.FakeNeighbours;
import com.telemed.requests.FakeNeighboursResource;
import com.telemed.requests.MovableClock;
import com.telemed.requests.PartnerWithDrugAndMember;
import com.telemed.requests.request.RequestFixtures;
import com.telemed.testkit.concurrent.Parallel;
import com.telemed.testkit.quarkus.InfrastructureResource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code PUT} and {@code GET /ops/v1/surveys/:surveyId} (operations-api.md, "Intake surveys"):
 * the upsert, every malformed definition as a 400 issue array (nothing stored), unknown drugs at
 * catalogue-service, and one intake survey per drug.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(FakeNeighboursResource.class)
class SurveyDefinitionTest extends PartnerWithDrugAndMember {

    @AfterEach
    void clock() {
        MovableClock.reset();
    }

    private static long surveys(String surveyId) {
        return count("SELECT count(*) FROM surveys WHERE id = ?", surveyId);
    }

    /** The definition as the operator reads it back: the questions as sent, with the survey's id, drugs and times. */
    private static Map<String, Object> expected(String surveyId, String title, List<String> drugIds,
                                                List<Map<String, Object>> questions, String createdAt, String updatedAt) {
        Map<String, Object> survey = new LinkedHashMap<>();
        survey.put("id", surveyId);
        survey.put("title", title);
        survey.put("drugIds", drugIds);
        survey.put("questions", questions);
        survey.put("createdAt", createdAt);
        survey.put("updatedAt", updatedAt);
        return Map.of("survey", survey);
    }

    @Test
    void putCreatesThenReplacesAndGetReadsIt() {
        String surveyId = newSurveyId();
        Map<String, Object> created = put(surveyId, definition("Weight loss intake", List.of(drugId), intakeQuestions()))
                .then().statusCode(200).extract().jsonPath().getMap("");
        @SuppressWarnings("unchecked")
        String createdAt = ((Map<String, String>) created.get("survey")).get("createdAt");
        assertTrue(createdAt.matches(SurveyFixtures.TIMESTAMP), createdAt);
        assertEquals(expected(surveyId, "Weight loss intake", List.of(drugId), intakeQuestions(), createdAt, createdAt), created);
        assertEquals(created, given().get("/ops/v1/surveys/" + surveyId).then().statusCode(200).extract().jsonPath().getMap(""));

        // Replaced a minute later: a new title, a second drug, other questions; createdAt stays.
        String second = RequestFixtures.newDrugId();
        neighbours.drug(second, "Tirzepatide", List.of("2.5mg"), partner);
        MovableClock.advance(Duration.ofMinutes(1));
        List<Map<String, Object>> questions = List.of(disqualifying(question("age", "Your age", "number", true), 17.50));
        Map<String, Object> replaced = put(surveyId, definition("Intake v2", List.of(second, drugId), questions))
                .then().statusCode(200).extract().jsonPath().getMap("");
        @SuppressWarnings("unchecked")
        String updatedAt = ((Map<String, String>) replaced.get("survey")).get("updatedAt");
        assertTrue(Instant.parse(updatedAt).isAfter(Instant.parse(createdAt).plusSeconds(59)), updatedAt);
        // 17.50 is kept as written back: 17.5.
        List<Map<String, Object>> shown = List.of(disqualifying(question("age", "Your age", "number", true), 17.5f));
        assertEquals(expected(surveyId, "Intake v2", List.of(second, drugId), shown, createdAt, updatedAt), replaced);
        assertEquals(replaced, given().get("/ops/v1/surveys/" + surveyId).then().statusCode(200).extract().jsonPath().getMap(""));
        assertEquals(1, surveys(surveyId));
    }

    @Test
    void anUnknownSurveyIsNotFound() {
        given().get("/ops/v1/surveys/" + newSurveyId()).then().statusCode(404).body("", equalTo(error("Survey not found")));
        given().get("/ops/v1/surveys/not.a.slug").then().statusCode(404).body("", equalTo(error("Survey not found")));
    }

    /** One malformed question (index 0 of the survey's questions) and the exact issues it gives; nothing stored. */
    @SafeVarargs
    private void refused(Map<String, Object> question, Map<String, Object>... issues) {
        String surveyId = newSurveyId();
        put(surveyId, definition("Intake", List.of(drugId), List.of(question))).then().statusCode(400)
                .body("error", equalTo(List.of(issues)));
        assertEquals(0, surveys(surveyId));
    }

    private static List<Object> at(Object... path) {
        return List.of(path);
    }

    @Test
    void optionsBelongToChoicesOnlyNonEmptyAndDistinct() {
        refused(question("goal", "Goal?", "choice", true),
                issue("custom", at("questions", 0, "options"), "Options are required for a choice question"));
        refused(withOptions(question("pregnant", "Pregnant?", "boolean", true), "yes", "no"),
                issue("custom", at("questions", 0, "options"), "Options are only allowed for a choice question"));
        refused(withOptions(question("goal", "Goal?", "choice", true)),
                issue("too_small", at("questions", 0, "options"), "Array must contain at least 1 element(s)",
                        "minimum", 1, "type", "array", "inclusive", true, "exact", false));
        refused(withOptions(question("goal", "Goal?", "choice", true), "lose", ""),
                issue("too_small", at("questions", 0, "options", 1), "String must contain at least 1 character(s)",
                        "minimum", 1, "type", "string", "inclusive", true, "exact", false));
        refused(withOptions(question("goal", "Goal?", "choice", true), "lose", "maintain", "lose"),
                issue("custom", at("questions", 0, "options", 2), "Duplicate option"));
    }

    @Test
    void disqualifyWhenEqualsIsAnAnswerOfTheQuestionsType() {
        refused(disqualifying(question("pregnant", "Pregnant?", "boolean", true), "yes"),
                issue("invalid_type", at("questions", 0, "disqualifyWhen", "equals"), "Expected boolean, received string",
                        "expected", "boolean", "received", "string"));
        refused(disqualifying(question("weight", "Weight?", "number", true), "0"),
                issue("invalid_type", at("questions", 0, "disqualifyWhen", "equals"), "Expected number, received string",
                        "expected", "number", "received", "string"));
        refused(disqualifying(withOptions(question("goal", "Goal?", "choice", true), "lose", "maintain"), "gain"),
                issue("invalid_enum_value", at("questions", 0, "disqualifyWhen", "equals"),
                        "Invalid enum value. Expected 'lose' | 'maintain', received 'gain'",
                        "received", "gain", "options", List.of("lose", "maintain")));
        refused(disqualifying(question("notes", "Notes?", "text", false), 5),
                issue("invalid_type", at("questions", 0, "disqualifyWhen", "equals"), "Expected string, received number",
                        "expected", "string", "received", "number"));
        refused(disqualifying(question("pregnant", "Pregnant?", "boolean", true), null),
                issue("invalid_type", at("questions", 0, "disqualifyWhen", "equals"), "Expected boolean, received null",
                        "expected", "boolean", "received", "null"));
        Map<String, Object> noEquals = question("pregnant", "Pregnant?", "boolean", true);
        noEquals.put("disqualifyWhen", Map.of());
        refused(noEquals, issue("invalid_type", at("questions", 0, "disqualifyWhen", "equals"), "Required",
                "expected", "boolean", "received", "undefined"));
        Map<String, Object> notAnObject = question("pregnant", "Pregnant?", "boolean", true);
        notAnObject.put("disqualifyWhen", true);
        refused(notAnObject, issue("invalid_type", at("questions", 0, "disqualifyWhen"), "Expected object, received boolean",
                "expected", "object", "received", "boolean"));
    }

    @Test
    void questionFieldsTypesAndIdsAreChecked() {
        refused(question("weight", "Weight?", "date", true),
                issue("invalid_enum_value", at("questions", 0, "type"),
                        "Invalid enum value. Expected 'boolean' | 'choice' | 'number' | 'text', received 'date'",
                        "received", "date", "options", List.of("boolean", "choice", "number", "text")));
        refused(question("has space", "", "text", true),
                issue("invalid_string", at("questions", 0, "id"), "Question id may contain only letters, digits, '-' and '_'",
                        "validation", "regex"),
                issue("too_small", at("questions", 0, "text"), "String must contain at least 1 character(s)",
                        "minimum", 1, "type", "string", "inclusive", true, "exact", false));
        Map<String, Object> noRequired = question("notes", "Notes?", "text", true);
        noRequired.remove("required");
        refused(noRequired, issue("invalid_type", at("questions", 0, "required"), "Required",
                "expected", "boolean", "received", "undefined"));

        String surveyId = newSurveyId();
        List<Map<String, Object>> twice = List.of(question("q1", "First?", "boolean", true), question("q2", "Second?", "text", false),
                question("q1", "Third?", "boolean", true));
        put(surveyId, definition("Intake", List.of(drugId), twice)).then().statusCode(400)
                .body("error", equalTo(List.of(issue("custom", at("questions", 2, "id"), "Duplicate question id"))));
        put(surveyId, definition("Intake", List.of(drugId), List.of())).then().statusCode(400)
                .body("error", equalTo(List.of(issue("too_small", at("questions"), "Array must contain at least 1 element(s)",
                        "minimum", 1, "type", "array", "inclusive", true, "exact", false))));
        given().contentType("application/json").body("{}").put("/ops/v1/surveys/" + surveyId).then().statusCode(400)
                .body("error", equalTo(List.of(
                        issue("invalid_type", at("title"), "Required", "expected", "string", "received", "undefined"),
                        issue("invalid_type", at("drugIds"), "Required", "expected", "array", "received", "undefined"),
                        issue("invalid_type", at("questions"), "Required", "expected", "array", "received", "undefined"))));
        assertEquals(0, surveys(surveyId));
    }

    @Test
    void everyUnknownDrugIsAnIssueAtItsPathAndMalformedOnesAreNotAsked() {
        String surveyId = newSurveyId();
        String unknown = "unknown-" + RequestFixtures.newDrugId();
        String other = "other-" + RequestFixtures.newDrugId();
        neighbours.clearCalls();
        put(surveyId, definition("Intake", List.of(unknown, drugId, other), intakeQuestions())).then().statusCode(400)
                .body("error", equalTo(List.of(issue("custom", at("drugIds", 0), "Drug not found"),
                        issue("custom", at("drugIds", 2), "Drug not found"))));
        // Asked like other drug lookups (a partner id is required there: the operator's).
        assertEquals(List.of("/internal/drugs/" + unknown + "?partnerId=operator", "/internal/drugs/" + drugId + "?partnerId=operator",
                        "/internal/drugs/" + other + "?partnerId=operator"),
                neighbours.calls().stream().filter(FakeNeighbours::toCatalogue)
                        .map(call -> call.path() + "?partnerId=" + call.query().get("partnerId")).toList());
        assertEquals(0, surveys(surveyId));

        neighbours.clearCalls();
        put(surveyId, definition("Intake", List.of("bad drug", drugId, drugId), intakeQuestions())).then().statusCode(400)
                .body("error", equalTo(List.of(
                        issue("invalid_string", at("drugIds", 0), "Drug id may contain only letters, digits, '-' and '_'",
                                "validation", "regex"),
                        issue("custom", at("drugIds", 2), "Duplicate drug id"))));
        put(surveyId, definition("Intake", List.of(), intakeQuestions())).then().statusCode(400)
                .body("error", equalTo(List.of(issue("too_small", at("drugIds"), "Array must contain at least 1 element(s)",
                        "minimum", 1, "type", "array", "inclusive", true, "exact", false))));
        assertEquals(List.of(), neighbours.calls().stream().filter(FakeNeighbours::toCatalogue).toList(),
                "a body with issues asks the catalogue nothing");
    }

    @Test
    void aBadSurveyIdIsAnIssueBesideTheBodysOwn() {
        Map<String, Object> body = definition("", List.of(drugId), intakeQuestions());
        put("bad.id", body).then().statusCode(400).body("error", equalTo(List.of(
                issue("invalid_string", at("surveyId"), "Survey id may contain only letters, digits, '-' and '_'", "validation", "regex"),
                issue("too_small", at("title"), "String must contain at least 1 character(s)",
                        "minimum", 1, "type", "string", "inclusive", true, "exact", false))));
        put("s".repeat(129), definition("Intake", List.of(drugId), intakeQuestions())).then().statusCode(400)
                .body("error", equalTo(List.of(issue("too_big", at("surveyId"), "String must contain at most 128 character(s)",
                        "maximum", 128, "type", "string", "inclusive", true, "exact", false))));
    }

    /** A drug has one intake survey: another survey naming it is refused until the first lets it go. */
    @Test
    void aDrugOfAnotherSurveyIsRefusedUntilThatSurveyDropsIt() {
        String first = SurveyFixtures.defineIntake(drugId);
        String second = newSurveyId();
        String free = RequestFixtures.newDrugId();
        neighbours.drug(free, "Other", List.of("1mg"), partner);
        put(second, definition("Other intake", List.of(free, drugId), intakeQuestions())).then().statusCode(400)
                .body("error", equalTo(List.of(issue("custom", at("drugIds", 1), "Drug already has an intake survey: " + first))));
        assertEquals(0, surveys(second));
        // The survey itself may keep naming it.
        put(first, definition("Weight loss intake", List.of(drugId), intakeQuestions())).then().statusCode(200);

        put(first, definition("Weight loss intake", List.of(free), intakeQuestions())).then().statusCode(200);
        put(second, definition("Other intake", List.of(drugId), intakeQuestions())).then().statusCode(200)
                .body("survey.drugIds", equalTo(List.of(drugId)));
        SurveyFixtures.as(partner).queryParam("drugId", drugId).get("/v1/surveys/v2/lookup").then().statusCode(200)
                .body("surveyId", equalTo(second));
    }

    /** Surveys put at once, all naming one new drug: exactly one takes it. */
    @Test
    void concurrentSurveysForOneDrugGiveItToOne() throws Exception {
        String drug = RequestFixtures.newDrugId();
        neighbours.drug(drug, "Contested", List.of("1mg"), partner);
        List<String> ids = IntStream.range(0, 6).mapToObj(index -> newSurveyId()).toList();
        List<Integer> statuses = new ArrayList<>(Parallel.map(6, ids,
                id -> put(id, definition("Intake", List.of(drug), intakeQuestions())).statusCode()));
        statuses.sort(null);
        assertEquals(List.of(200, 400, 400, 400, 400, 400), statuses);
        assertEquals(1, count("SELECT count(*) FROM survey_drugs WHERE drug_id = ?", drug));
    }
}
