package com.telemed.requests.survey;

import static com.telemed.common.validation.Schemas.array;
import static com.telemed.common.validation.Schemas.bool;
import static com.telemed.common.validation.Schemas.enumOf;
import static com.telemed.common.validation.Schemas.object;
import static com.telemed.common.validation.Schemas.string;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.TextNode;
import com.telemed.common.validation.Binding;
import com.telemed.common.validation.Issues;
import com.telemed.common.validation.ObjectSchema;
import com.telemed.common.validation.Schema;
import com.telemed.common.validation.StringSchema;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The bodies and queries of the survey calls (operations-api.md, "Intake surveys"), Zod issues
 * all at once. Bounds: README, "Surveys (issue 20)".
 */
final class SurveySchemas {

    static final int SURVEY_ID_MAX = 128;
    static final int DRUG_ID_MAX = 128;
    static final int TITLE_MAX = 200;
    static final int DRUGS_MAX = 100;
    static final int QUESTIONS_MAX = 100;
    static final int QUESTION_ID_MAX = 64;
    static final int QUESTION_TEXT_MAX = 1_000;
    static final int OPTIONS_MAX = 50;
    static final int OPTION_MAX = 200;
    static final int ID_MAX = 255;
    static final int NAME_MAX = 100;
    static final int EMAIL_MAX = 254;

    static final Pattern SLUG = Pattern.compile("^[A-Za-z0-9_-]+$");
    static final String SURVEY_ID_INVALID = "Survey id may contain only letters, digits, '-' and '_'";
    static final String DRUG_ID_INVALID = "Drug id may contain only letters, digits, '-' and '_'";
    static final String QUESTION_ID_INVALID = "Question id may contain only letters, digits, '-' and '_'";
    static final String DUPLICATE_DRUG = "Duplicate drug id";
    static final String DUPLICATE_QUESTION = "Duplicate question id";
    static final String DUPLICATE_OPTION = "Duplicate option";
    static final String OPTIONS_REQUIRED = "Options are required for a choice question";
    static final String OPTIONS_NOT_ALLOWED = "Options are only allowed for a choice question";

    private SurveySchemas() {
    }

    /** The {@code :surveyId} of {@code PUT /ops/v1/surveys/:surveyId}: a slug like a drug id (issues at {@code ["surveyId"]}). */
    static StringSchema surveyId() {
        return string().min(1).max(SURVEY_ID_MAX).regex(SLUG, SURVEY_ID_INVALID);
    }

    /** {@code PUT /ops/v1/surveys/:surveyId}: {@code {title, drugIds, questions}}. */
    static final ObjectSchema DEFINITION = object()
            .field("title", string().min(1).max(TITLE_MAX))
            .field("drugIds", array(string().min(1).max(DRUG_ID_MAX).regex(SLUG, DRUG_ID_INVALID)).min(1).max(DRUGS_MAX))
            .field("questions", array(question()).min(1).max(QUESTIONS_MAX))
            .rule((body, path, issues) -> duplicates(body.get("drugIds"), List.of(), Issues.append(path, "drugIds"),
                    DUPLICATE_DRUG, issues))
            .rule((body, path, issues) -> duplicates(body.get("questions"), List.of("id"), Issues.append(path, "questions"),
                    DUPLICATE_QUESTION, issues));

    /**
     * One question. Beyond its fields (run when none of them has the wrong type): {@code options}
     * on a choice and only there, no option twice, and {@code disqualifyWhen.equals} what the
     * question accepts as an answer (a boolean, a number, one of the options, a string).
     */
    private static ObjectSchema question() {
        return object()
                .field("id", string().min(1).max(QUESTION_ID_MAX).regex(SLUG, QUESTION_ID_INVALID))
                .field("text", string().min(1).max(QUESTION_TEXT_MAX))
                .field("type", enumOf(Question.BOOLEAN, Question.CHOICE, Question.NUMBER, Question.TEXT))
                .field("options", array(string().min(1).max(OPTION_MAX)).min(1).max(OPTIONS_MAX).optional())
                .field("required", bool())
                .field("disqualifyWhen", object().optional())
                .rule((question, path, issues) -> {
                    String type = question.get("type").textValue();
                    boolean choice = Question.CHOICE.equals(type);
                    JsonNode options = question.get("options");
                    if (choice && options == null) {
                        issues.custom(Issues.append(path, "options"), OPTIONS_REQUIRED);
                    } else if (!choice && options != null) {
                        issues.custom(Issues.append(path, "options"), OPTIONS_NOT_ALLOWED);
                    }
                    duplicates(options, List.of(), Issues.append(path, "options"), DUPLICATE_OPTION, issues);
                    JsonNode disqualifyWhen = question.get("disqualifyWhen");
                    if (disqualifyWhen != null && (!choice || (options != null && !options.isEmpty()))) {
                        List<String> values = new ArrayList<>();
                        if (options != null) {
                            options.forEach(option -> values.add(option.textValue()));
                        }
                        Schema<?> accepted = SurveyAnswers.valueSchema(type, values);
                        accepted.validate(disqualifyWhen.get("equals"), Issues.append(path, "disqualifyWhen", "equals"), issues);
                    }
                });
    }

    /** A {@code custom} issue at every entry (or its {@code field}) whose text an earlier entry had. */
    private static void duplicates(JsonNode entries, List<String> field, List<Object> path, String message, Issues issues) {
        if (entries == null || !entries.isArray()) {
            return;
        }
        Set<String> seen = new HashSet<>();
        for (int index = 0; index < entries.size(); index++) {
            JsonNode value = field.isEmpty() ? entries.get(index) : entries.get(index).get(field.get(0));
            if (value != null && value.isTextual() && !seen.add(value.textValue())) {
                List<Object> at = Issues.append(path, index);
                issues.custom(field.isEmpty() ? at : Issues.append(at, field.get(0)), message);
            }
        }
    }

    /** {@code POST /v1/surveys/v2/tokens}: {@code {memberId, surveyId}}. */
    /**
     * {@code PUT /ops/v1/surveys/:surveyId}: the path's survey id and the body validated together (every issue at
     * once, the id's first), then the body bound; an absent body reads as {@code {}}.
     */
    static SurveyDefinitionInput definitionInput(String surveyId, JsonNode body) {
        JsonNode input = body == null || body.isNull() ? JsonNodeFactory.instance.objectNode() : body;
        Issues issues = new Issues();
        surveyId().validate(TextNode.valueOf(surveyId), List.of("surveyId"), issues);
        DEFINITION.validate(input, List.of(), issues);
        issues.throwIfAny();
        return Binding.bindValidated(input, SurveyDefinitionInput.class);
    }

    static final ObjectSchema TOKEN = object()
            .field("memberId", string().min(1).max(ID_MAX))
            .field("surveyId", string().min(1).max(SURVEY_ID_MAX));

    /** {@code GET /v1/surveys/v2/lookup?drugId=}. */
    static final ObjectSchema LOOKUP = object().field("drugId", string().min(1).max(DRUG_ID_MAX));

    /**
     * A submission against the survey's questions: {@code {answers, contact?}}; {@code contact}
     * (absent or null: not collected) is {@code {firstName, lastName, email}}, all three.
     */
    static ObjectSchema response(List<Question> questions) {
        return object()
                .field("answers", SurveyAnswers.answersSchema(questions))
                .field("contact", object()
                        .field("firstName", string().min(1).max(NAME_MAX).singleLine())
                        .field("lastName", string().min(1).max(NAME_MAX).singleLine())
                        .field("email", string().email().max(EMAIL_MAX))
                        .optional().nullable());
    }

    /** A submission read for the survey's {@code questions}: {@link #response}'s issues all at once, then bound. */
    static SurveyResponseInput responseInput(List<Question> questions, JsonNode body) {
        return Binding.bind(response(questions), body, SurveyResponseInput.class);
    }
}
