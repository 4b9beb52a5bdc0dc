package com.telemed.requests.survey;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.telemed.common.json.Timestamps;
import java.time.Instant;

/**
 * {@code survey.completed} (partner-api.md, "Payloads"): the partner payload exactly, in the
 * contract's order, and the internal {@code data} (ids and flags, no patient data).
 */
final class SurveyPayloads {

    private SurveyPayloads() {
    }

    /**
     * {@code event, responseId, mode, qualified, drugIds, selectedDrugId (null), memberId (null
     * for anonymous submissions), patientName and patientEmail (from the contact section, omitted
     * when none was sent: a token submission does not fill them from the member record),
     * timestamp}.
     */
    static ObjectNode completed(SurveyResponse response, Instant at) {
        ObjectNode webhook = JsonNodeFactory.instance.objectNode()
                .put("event", SurveyEvents.SURVEY_COMPLETED)
                .put("responseId", response.id.toString())
                .put("mode", response.mode)
                .put("qualified", response.qualified);
        ArrayNode drugIds = webhook.putArray("drugIds");
        response.drugIds.forEach(drugIds::add);
        webhook.putNull("selectedDrugId");
        webhook.put("memberId", response.memberId == null ? null : response.memberId.toString());
        if (response.contactCollected()) {
            webhook.put("patientName", (response.contactFirstName + " " + response.contactLastName).trim());
            webhook.put("patientEmail", response.contactEmail);
        }
        return webhook.put("timestamp", Timestamps.format(at));
    }

    /** For internal consumers: {@code {responseId, surveyId, mode, memberId, qualified}}. */
    static ObjectNode data(SurveyResponse response) {
        ObjectNode data = JsonNodeFactory.instance.objectNode()
                .put("responseId", response.id.toString())
                .put("surveyId", response.surveyId)
                .put("mode", response.mode);
        data.put("memberId", response.memberId == null ? null : response.memberId.toString());
        return data.put("qualified", response.qualified);
    }
}
