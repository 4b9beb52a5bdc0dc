package com.telemed.requests.survey;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A survey submission ({@code POST /v2/embed/surveys/:surveyId/responses}, {@code POST /v2/embed/by-token/responses}),
 * bound after {@link SurveySchemas#response} passed for the stored survey's questions ({@link SurveySchemas#responseInput}):
 * {@code answers} stays a tree, an answer's value as sent (yes/no, number or text by its question).
 */
public record SurveyResponseInput(JsonNode answers, Contact contact) {

    public record Contact(String firstName, String lastName, String email) {
    }
}
