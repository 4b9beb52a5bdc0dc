package com.telemed.web.console.admin;

import java.util.Map;

/**
 * An intake survey's form ({@code console-survey.html}) for {@code PUT /ops/v1/surveys/{id}}: {@code title},
 * {@code drugIds} (comma-separated) and {@code questions} (JSON, with their rules), as the API has them or as
 * typed after a refusal, and the issues next to their fields.
 *
 * @param isNew whether the API answered that it has no such survey (the form then creates it)
 * @param updatedAt when it last changed (UTC), empty for a new one
 * @param notice what was just done ({@code Survey saved}), or null
 * @param error a refusal about no field, or null
 */
public record SurveyFormView(String id, boolean isNew, String updatedAt, String notice, String error, String title, String drugIds,
                             String questions, Map<String, String> errors, String csrf) {

    public String action() {
        return "/console/surveys/" + com.telemed.web.page.Pages.encode(id);
    }

    public String titleError() {
        return errors.get("title");
    }

    public String drugIdsError() {
        return errors.get("drugIds");
    }

    public String questionsError() {
        return errors.get("questions");
    }

    public boolean failed() {
        return error != null || !errors.isEmpty();
    }
}
