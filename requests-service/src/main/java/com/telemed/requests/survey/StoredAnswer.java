package com.telemed.requests.survey;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.math.BigDecimal;

/**
 * One answered question of a response as {@code survey_responses.answers} keeps it: the question's
 * id and its text as asked, and the answer in the field of its type (numbers as exact decimals, so
 * a stored answer reads back as it was sent). Exactly one of {@code yes}, {@code number},
 * {@code text} is set; a choice is its option in {@code text}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record StoredAnswer(String questionId, String question, Boolean yes, BigDecimal number, String text) {

    /** From a validated answer of the question's type. */
    static StoredAnswer of(Question question, JsonNode value) {
        return switch (question.type()) {
            case Question.BOOLEAN -> new StoredAnswer(question.id(), question.text(), value.booleanValue(), null, null);
            case Question.NUMBER -> new StoredAnswer(question.id(), question.text(), null, SurveyAnswers.plain(value.decimalValue()), null);
            default -> new StoredAnswer(question.id(), question.text(), null, null, value.textValue());
        };
    }

    /** The answer as JSON: a boolean, a number or a string. */
    JsonNode value() {
        if (yes != null) {
            return BooleanNode.valueOf(yes);
        }
        if (number != null) {
            return DecimalNode.valueOf(number);
        }
        return TextNode.valueOf(text);
    }

    /** The answer as the request's summary writes it: {@code Yes}/{@code No}, a plain number, the text. */
    String written() {
        if (yes != null) {
            return yes ? "Yes" : "No";
        }
        if (number != null) {
            return number.toPlainString();
        }
        return text;
    }
}
