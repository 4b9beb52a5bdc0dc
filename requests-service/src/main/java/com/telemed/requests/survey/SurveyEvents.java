package com.telemed.requests.survey;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.telemed.common.event.EventEnvelope;
import com.telemed.common.event.EventSubject;
import com.telemed.common.outbox.Outbox;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.UUID;

/**
 * What the survey feature publishes on {@code care.events}, through the outbox in the transaction that records the
 * response: {@code survey.completed} ({@link SurveyPayloads} builds its payloads). Before issue #43 it went through
 * {@code request.RequestEvents}, which made {@code survey} and {@code request} a cycle.
 */
@ApplicationScoped
public class SurveyEvents {

    /** The topic of every care event, {@code request.RequestEvents}' too. */
    public static final String TOPIC = "care.events";

    public static final String SURVEY_COMPLETED = "survey.completed";

    private final Outbox outbox;

    public SurveyEvents(Outbox outbox) {
        this.outbox = outbox;
    }

    /**
     * {@code survey.completed}: a survey response was submitted. Key = the response id (no request exists yet); the
     * subject names the member when the response has one (a token's), else it is empty.
     */
    public void surveyCompleted(String partnerId, UUID responseId, UUID memberId, ObjectNode webhook, ObjectNode data,
                                Instant at) {
        EventSubject subject = new EventSubject(null, null, memberId == null ? null : memberId.toString(), null, null);
        outbox.publish(TOPIC, responseId.toString(), new EventEnvelope(UUID.randomUUID().toString(), SURVEY_COMPLETED,
                partnerId, at, subject, data, webhook));
    }
}
