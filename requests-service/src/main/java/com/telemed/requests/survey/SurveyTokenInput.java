package com.telemed.requests.survey;

/** {@code POST /v1/surveys/v2/tokens}, bound after {@link SurveySchemas#TOKEN}. */
public record SurveyTokenInput(String memberId, String surveyId) {
}
