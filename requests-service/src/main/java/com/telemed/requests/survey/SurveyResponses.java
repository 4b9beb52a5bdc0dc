package com.telemed.requests.survey;

import com.telemed.common.error.ApiException;
import com.telemed.common.id.Ids;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
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

    private final SurveyEvents events;
    private final Clock clock;

    public SurveyResponses(SurveyEvents events, Clock clock) {
        this.events = events;
        this.clock = clock;
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MILLIS);
    }

    /**
     * {@code POST /v2/embed/surveys/:surveyId/responses}: anonymous, {@code mode: initial}, no member. The body is
     * validated against the stored survey's questions: {@code read} is the resource's binding of it
     * ({@link SurveySchemas#responseInput}), called with them once the survey is found.
     */
    public SurveyViews.Submitted submit(String partnerId, String surveyId, Function<List<Question>, SurveyResponseInput> read) {
        return QuarkusTransaction.requiringNew().call(() -> {
            Survey survey = Surveys.existing(surveyId);
            return record(partnerId, survey, read.apply(survey.questions), SurveyResponse.INITIAL, null, now()).submitted();
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

    /**
     * {@code POST /v2/embed/by-token/responses?token=}: the token's member, {@code mode: refill}; the token is used up.
     * {@code read} binds the body against the token's survey, as for {@link #submit}, once the token is found usable.
     */
    public SurveyViews.Submitted submitWithToken(String partnerId, String token,
                                                 Function<List<Question>, SurveyResponseInput> read) {
        return QuarkusTransaction.requiringNew().call(() -> {
            Instant now = now();
            SurveyToken found = SurveyTokens.usable(partnerId, token, now, true);
            Survey survey = Surveys.existing(found.surveyId);
            SurveyResponse response = record(partnerId, survey, read.apply(survey.questions), SurveyResponse.REFILL, found.memberId, now);
            found.usedAt = now;
            found.responseId = response.id;
            return response.submitted();
        });
    }

    private SurveyResponse record(String partnerId, Survey survey, SurveyResponseInput input, String mode, UUID memberId,
                                  Instant now) {
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
