package com.telemed.requests.survey;

import static io.restassured.RestAssured.given;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.requests.request.RequestEvents;
import com.telemed.testkit.kafka.TopicReader;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Bodies and calls of the survey surfaces (operations-api.md, "Intake surveys"). */
final class SurveyFixtures {

    static final String TIMESTAMP = "^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z$";

    private SurveyFixtures() {
    }

    static String newSurveyId() {
        return "intake-" + UUID.randomUUID().toString().substring(0, 8);
    }

    static Map<String, Object> question(String id, String text, String type, boolean required) {
        Map<String, Object> question = new LinkedHashMap<>();
        question.put("id", id);
        question.put("text", text);
        question.put("type", type);
        question.put("required", required);
        return question;
    }

    static Map<String, Object> disqualifying(Map<String, Object> question, Object equals) {
        Map<String, Object> rule = new LinkedHashMap<>();
        rule.put("equals", equals);
        question.put("disqualifyWhen", rule);
        return question;
    }

    static Map<String, Object> withOptions(Map<String, Object> question, String... options) {
        question.put("options", List.of(options));
        return question;
    }

    /**
     * The intake of the tests: {@code pregnant} (boolean, required, disqualifies when true),
     * {@code goal} (choice lose/maintain, required), {@code weight} (number, required, disqualifies
     * at 0), {@code notes} (text, optional).
     */
    static List<Map<String, Object>> intakeQuestions() {
        List<Map<String, Object>> questions = new ArrayList<>();
        questions.add(disqualifying(question("pregnant", "Are you pregnant?", "boolean", true), true));
        questions.add(withOptions(question("goal", "What is your goal?", "choice", true), "lose", "maintain"));
        questions.add(disqualifying(question("weight", "Your weight in pounds", "number", true), 0));
        questions.add(question("notes", "Anything else?", "text", false));
        return questions;
    }

    static Map<String, Object> definition(String title, List<String> drugIds, List<Map<String, Object>> questions) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("title", title);
        body.put("drugIds", drugIds);
        body.put("questions", questions);
        return body;
    }

    static Response put(String surveyId, Object body) {
        return given().contentType("application/json").body(body).put("/ops/v1/surveys/" + surveyId);
    }

    /** Defines the intake survey for the drugs; returns its id. */
    static String defineIntake(String... drugIds) {
        String surveyId = newSurveyId();
        put(surveyId, definition("Weight loss intake", List.of(drugIds), intakeQuestions())).then().statusCode(200);
        return surveyId;
    }

    static RequestSpecification as(String partnerId) {
        return given().header("X-Partner-Id", partnerId);
    }

    static Map<String, Object> answers(Object... pairs) {
        Map<String, Object> answers = new LinkedHashMap<>();
        for (int index = 0; index < pairs.length; index += 2) {
            answers.put((String) pairs[index], pairs[index + 1]);
        }
        return answers;
    }

    static Map<String, Object> submission(Map<String, Object> answers, Map<String, Object> contact) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("answers", answers);
        if (contact != null) {
            body.put("contact", contact);
        }
        return body;
    }

    static Map<String, Object> contact(String firstName, String lastName, String email) {
        Map<String, Object> contact = new LinkedHashMap<>();
        contact.put("firstName", firstName);
        contact.put("lastName", lastName);
        contact.put("email", email);
        return contact;
    }

    /** Answers that qualify: not pregnant, a goal, a weight. */
    static Map<String, Object> qualifying() {
        return answers("pregnant", false, "goal", "lose", "weight", 180);
    }

    static Response submit(String partnerId, String surveyId, Object body) {
        return as(partnerId).contentType("application/json").body(body).post("/v2/embed/surveys/" + surveyId + "/responses");
    }

    /** An anonymous submission (201); its response id. */
    static String submitted(String partnerId, String surveyId, Object body) {
        return submit(partnerId, surveyId, body).then().statusCode(201).extract().path("responseId");
    }

    static Response mintToken(String partnerId, String memberId, String surveyId) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("memberId", memberId);
        body.put("surveyId", surveyId);
        return as(partnerId).contentType("application/json").body(body).post("/v1/surveys/v2/tokens");
    }

    static String token(String partnerId, String memberId, String surveyId) {
        return mintToken(partnerId, memberId, surveyId).then().statusCode(201).extract().path("token");
    }

    static Response submitWithToken(String partnerId, String token, Object body) {
        return as(partnerId).contentType("application/json").queryParam("token", token).body(body)
                .post("/v2/embed/by-token/responses");
    }

    static Response surveyOfToken(String partnerId, String token) {
        return as(partnerId).queryParam("token", token).get("/v2/embed/by-token/survey");
    }

    /** The response's {@code care.events} envelopes (key = response id): exactly {@code count} of them. */
    static List<JsonNode> events(String responseId, int count) {
        return TopicReader.jsons(TopicReader.readKey(TopicReader.configuredBootstrapServers(), RequestEvents.TOPIC, responseId,
                count, Duration.ofSeconds(30)));
    }
}
