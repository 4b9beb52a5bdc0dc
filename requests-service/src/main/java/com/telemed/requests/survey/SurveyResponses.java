package com.telemed.requests.survey;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.common.error.ApiException;
import com.telemed.common.id.Ids;
import com.telemed.common.validation.Binding;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * Survey submissions from the browser (operations-api.md, "Intake surveys", Embed) and the
 * partner's read of a response. A submission runs in one short transaction: the survey (and the
 * token) read, the answers checked against the definition (every issue at once: nothing is
 * written, a token stays unused), the response inserted and {@code survey.completed} written to
 * the outbox with it.
 */
@ApplicationScoped
public class SurveyResponses {

    static final String NOT_FOUND = "Survey response not found";

    private static final Logger LOG = Logger.getLogger(SurveyResponses.class);

    /** A submission, bound after {@link SurveySchemas#response}: {@code answers} stays a tree. */
    record ResponseInput(JsonNode answers, Contact contact) {

        record Contact(String firstName, String lastName, String email) {
        }
    }

    private final SurveyEvents events;
    private final Clock clock;

    public SurveyResponses(SurveyEvents events, Clock clock) {
        this.events = events;
        this.clock = clock;
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MILLIS);
    }

    /** {@code POST /v2/embed/surveys/:surveyId/responses}: anonymous, {@code mode: initial}, no member. */
    public SurveyViews.Submitted submit(String partnerId, String surveyId, JsonNode body) {
        return QuarkusTransaction.requiringNew().call(() -> {
            Survey survey = Surveys.existing(surveyId);
            return record(partnerId, survey, body, SurveyResponse.INITIAL, null, now()).submitted();
        });
    }

    /** {@code GET /v2/embed/by-token/survey?token=}: the token's survey, as the browser reads it. */
    public SurveyViews.SurveyView surveyOfToken(String partnerId, String token) {
        return QuarkusTransaction.requiringNew().call(() -> {
            SurveyToken found = SurveyTokens.usable(partnerId, token, now(), false);
            Survey survey = Surveys.existing(found.surveyId);
            return SurveyViews.SurveyView.of(survey, survey.drugIds(), false);
        });
    }

    /** {@code POST /v2/embed/by-token/responses?token=}: the token's member, {@code mode: refill}; the token is used up. */
    public SurveyViews.Submitted submitWithToken(String partnerId, String token, JsonNode body) {
        return QuarkusTransaction.requiringNew().call(() -> {
            Instant now = now();
            SurveyToken found = SurveyTokens.usable(partnerId, token, now, true);
            Survey survey = Surveys.existing(found.surveyId);
            SurveyResponse response = record(partnerId, survey, body, SurveyResponse.REFILL, found.memberId, now);
            found.usedAt = now;
            found.responseId = response.id;
            return response.submitted();
        });
    }

    private SurveyResponse record(String partnerId, Survey survey, JsonNode body, String mode, UUID memberId, Instant now) {
        ResponseInput input = Binding.bind(SurveySchemas.response(survey.questions), body, ResponseInput.class);
        SurveyResponse response = new SurveyResponse();
        response.id = UUID.randomUUID();
        response.partnerId = partnerId;
        response.surveyId = survey.id;
        response.mode = mode;
        response.memberId = memberId;
        response.answers = SurveyAnswers.stored(survey.questions, input.answers());
        response.qualified = SurveyAnswers.qualified(survey.questions, input.answers());
        response.drugIds = survey.drugIds();
        if (input.contact() != null) {
            response.contactFirstName = input.contact().firstName();
            response.contactLastName = input.contact().lastName();
            response.contactEmail = input.contact().email();
        }
        response.createdAt = now;
        response.persist();
        events.surveyCompleted(partnerId, response.id, memberId, SurveyPayloads.completed(response, now),
                SurveyPayloads.data(response), now);
        LOG.infof("Survey response %s submitted for survey %s (%s)", response.id, survey.id, mode);
        return response;
    }

    /** {@code GET /v2/public/responses/:responseId}: the partner's own; another partner's, unknown or malformed: 404. */
    public SurveyViews.ResponseView get(String partnerId, String responseId) {
        return Ids.uuid(responseId)
                .flatMap(id -> QuarkusTransaction.requiringNew().call(() -> Optional.ofNullable(SurveyResponse.<SurveyResponse>findById(id))
                        .filter(response -> response.partnerId.equals(partnerId))
                        .map(SurveyViews.ResponseView::of)))
                .orElseThrow(() -> ApiException.notFound(NOT_FOUND));
    }
}
