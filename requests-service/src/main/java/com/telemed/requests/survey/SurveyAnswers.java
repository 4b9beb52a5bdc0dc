package com.telemed.requests.survey;

import static com.telemed.common.validation.Schemas.bool;
import static com.telemed.common.validation.Schemas.enumOf;
import static com.telemed.common.validation.Schemas.number;
import static com.telemed.common.validation.Schemas.object;
import static com.telemed.common.validation.Schemas.string;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.telemed.common.validation.ObjectSchema;
import com.telemed.common.validation.Schema;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Answers against a survey's definition: what each question accepts (also what its
 * {@code disqualifyWhen.equals} must be), whether the answers qualify, what is stored, and the
 * summary a request's {@code caseNotes} receives.
 */
final class SurveyAnswers {

    /** A text answer (and a text question's disqualifying value). */
    static final int TEXT_MAX = 2_000;
    /** A number answer: -1,000,000 to 1,000,000, at most six decimals (jsonb, exact decimals). */
    static final int NUMBER_BOUND = 1_000_000;
    static final int NUMBER_DECIMALS = 6;
    static final String UNKNOWN_QUESTION = "Unknown question";

    private SurveyAnswers() {
    }

    /**
     * What a question of this type accepts, present and not null: a boolean; a number; one of the
     * options (Zod's enum); a non-empty string. Null for a type that is none of the four.
     */
    static Schema<?> valueSchema(String type, List<String> options) {
        switch (type) {
            case Question.BOOLEAN:
                return bool();
            case Question.NUMBER:
                return number().min(-NUMBER_BOUND).max(NUMBER_BOUND).decimals(NUMBER_DECIMALS);
            case Question.CHOICE:
                return enumOf(options.toArray(String[]::new));
            case Question.TEXT:
                return string().min(1).max(TEXT_MAX);
            default:
                return null;
        }
    }

    /** A question's answer: required, or absent or {@code null} (not answered) for an optional question. */
    static Schema<?> answerSchema(Question question) {
        Schema<?> schema = valueSchema(question.type(), question.options());
        if (!question.required()) {
            schema.optional().nullable();
        }
        return schema;
    }

    /**
     * {@code answers}: an object of {@code questionId: value}. Every question's answer is checked
     * (path {@code ["answers", "<questionId>"]}), then every key that names no question is a
     * {@code custom} issue {@code Unknown question}; all of them in one answer.
     */
    static ObjectSchema answersSchema(List<Question> questions) {
        ObjectSchema answers = object().unknownKeys(UNKNOWN_QUESTION);
        questions.forEach(question -> answers.field(question.id(), answerSchema(question)));
        return answers;
    }

    /** The answered questions (absent and {@code null} answers left out), in the definition's order. */
    static List<StoredAnswer> stored(List<Question> questions, JsonNode answers) {
        List<StoredAnswer> stored = new ArrayList<>();
        for (Question question : questions) {
            JsonNode value = answers.get(question.id());
            if (value != null && !value.isNull()) {
                stored.add(StoredAnswer.of(question, value));
            }
        }
        return stored;
    }

    /**
     * Whether validated answers qualify: no answer hits its question's {@code disqualifyWhen}. Every
     * drug of a survey shares its questions, so qualifying for one of them (decisions.md) is
     * qualifying for all.
     */
    static boolean qualified(List<Question> questions, JsonNode answers) {
        for (Question question : questions) {
            JsonNode value = answers.get(question.id());
            if (question.disqualifyWhen() != null && value != null && !value.isNull()
                    && same(question.type(), value, question.disqualifyWhen().value())) {
                return false;
            }
        }
        return true;
    }

    private static boolean same(String type, JsonNode answer, JsonNode disqualifying) {
        return switch (type) {
            case Question.BOOLEAN -> answer.booleanValue() == disqualifying.booleanValue();
            case Question.NUMBER -> answer.decimalValue().compareTo(disqualifying.decimalValue()) == 0;
            default -> answer.textValue().equals(disqualifying.textValue());
        };
    }

    /**
     * The summary: one line per answered question, {@code <question text>: <answer>} (booleans
     * {@code Yes}/{@code No}, numbers plain, choices and texts as given), in the definition's order;
     * line breaks inside a question or an answer are written as spaces so each stays one line.
     * Unanswered optional questions have no line. Empty when nothing was answered.
     */
    static String summary(List<StoredAnswer> answers) {
        return answers.stream()
                .map(answer -> oneLine(answer.question()) + ": " + oneLine(answer.written()))
                .collect(Collectors.joining("\n"));
    }

    private static String oneLine(String text) {
        return text.replaceAll("\\R", " ");
    }

    /** A number as written back: no trailing zeros, never an exponent ({@code 42.50} is {@code 42.5}, {@code 1e2} is {@code 100}). */
    static BigDecimal plain(BigDecimal value) {
        BigDecimal stripped = value.signum() == 0 ? BigDecimal.ZERO : value.stripTrailingZeros();
        return stripped.scale() < 0 ? stripped.setScale(0) : stripped;
    }

    /** A disqualifying value as shown: numbers {@link #plain}. */
    static JsonNode shown(JsonNode value) {
        return value.isNumber() ? DecimalNode.valueOf(plain(value.decimalValue())) : value;
    }
}
