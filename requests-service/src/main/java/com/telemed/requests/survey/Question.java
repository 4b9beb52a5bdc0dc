package com.telemed.requests.survey;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * One question of a survey definition, as the operator's body binds (after
 * {@link SurveySchemas#definition}) and as {@code surveys.questions} stores it.
 *
 * @param type {@code boolean}, {@code choice}, {@code number} or {@code text}
 * @param options the values a choice may take; null for the other types
 * @param disqualifyWhen null when no answer disqualifies
 */
public record Question(String id, String text, String type, List<String> options, boolean required,
                       DisqualifyWhen disqualifyWhen) {

    public static final String BOOLEAN = "boolean";
    public static final String CHOICE = "choice";
    public static final String NUMBER = "number";
    public static final String TEXT = "text";

    /** {@code {equals}}: the answer that disqualifies, of the question's type. */
    public record DisqualifyWhen(@JsonProperty("equals") JsonNode value) {
    }
}
