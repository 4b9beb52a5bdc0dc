package com.telemed.requests.survey;

import java.util.List;

/** {@code PUT /ops/v1/surveys/:surveyId}, bound after {@link SurveySchemas#DEFINITION} ({@link SurveySchemas#definitionInput}). */
public record SurveyDefinitionInput(String title, List<String> drugIds, List<Question> questions) {
}
