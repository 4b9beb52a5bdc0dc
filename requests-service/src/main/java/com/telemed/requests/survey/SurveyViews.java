package com.telemed.requests.survey;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** What the survey calls answer (operations-api.md, "Intake surveys"). */
public final class SurveyViews {

    private SurveyViews() {
    }

    /**
     * {@code {survey: {...}}}. {@code options} and {@code disqualifyWhen} are omitted where the
     * definition has none; the browser's reads (embed, by token) never show {@code disqualifyWhen}.
     */
    public record SurveyView(Definition survey) {

        static SurveyView of(Survey survey, List<String> drugIds, boolean withRules) {
            List<QuestionView> questions = survey.questions.stream().map(question -> QuestionView.of(question, withRules)).toList();
            return new SurveyView(new Definition(survey.id, survey.title, drugIds, questions, survey.createdAt, survey.updatedAt));
        }
    }

    @JsonPropertyOrder({"id", "title", "drugIds", "questions", "createdAt", "updatedAt"})
    public record Definition(String id, String title, List<String> drugIds, List<QuestionView> questions, Instant createdAt,
                      Instant updatedAt) {
    }

    @JsonPropertyOrder({"id", "text", "type", "options", "required", "disqualifyWhen"})
    public record QuestionView(String id, String text, String type, @JsonInclude(JsonInclude.Include.NON_NULL) List<String> options,
                        boolean required, @JsonInclude(JsonInclude.Include.NON_NULL) JsonNode disqualifyWhen) {

        static QuestionView of(Question question, boolean withRules) {
            JsonNode disqualifyWhen = null;
            if (withRules && question.disqualifyWhen() != null) {
                ObjectNode rule = JsonNodeFactory.instance.objectNode();
                rule.set("equals", SurveyAnswers.shown(question.disqualifyWhen().value()));
                disqualifyWhen = rule;
            }
            return new QuestionView(question.id(), question.text(), question.type(), question.options(), question.required(),
                    disqualifyWhen);
        }
    }

    /** {@code GET /v1/surveys/v2/lookup}: {@code {surveyId}}. */
    public record Lookup(String surveyId) {
    }

    /** {@code POST /v1/surveys/v2/tokens}: {@code {token, expiresAt}}. */
    @JsonPropertyOrder({"token", "expiresAt"})
    public record Token(String token, Instant expiresAt) {
    }

    /** A submission's answer: {@code {responseId, qualified}}. */
    @JsonPropertyOrder({"responseId", "qualified"})
    public record Submitted(UUID responseId, boolean qualified) {
    }

    /** {@code GET /v2/public/responses/:responseId}: {@code {response: {...}}}. */
    public record ResponseView(ResponseBody response) {

        static ResponseView of(SurveyResponse response) {
            ObjectNode answers = JsonNodeFactory.instance.objectNode();
            response.answers.forEach(answer -> answers.set(answer.questionId(), answer.value()));
            Contact contact = response.contactCollected()
                    ? new Contact(response.contactFirstName, response.contactLastName, response.contactEmail) : null;
            return new ResponseView(new ResponseBody(response.id, response.surveyId, response.mode, response.memberId, answers,
                    contact, response.qualified, response.drugIds, response.createdAt));
        }
    }

    @JsonPropertyOrder({"id", "surveyId", "mode", "memberId", "answers", "contact", "qualified", "drugIds", "createdAt"})
    public record ResponseBody(UUID id, String surveyId, String mode, UUID memberId, ObjectNode answers, Contact contact,
                        boolean qualified, List<String> drugIds, Instant createdAt) {
    }

    @JsonPropertyOrder({"firstName", "lastName", "email"})
    public record Contact(String firstName, String lastName, String email) {
    }
}
