package com.telemed.requests.survey;

import com.telemed.common.error.ApiException;
import com.telemed.common.id.Ids;
import io.quarkus.narayana.jta.QuarkusTransaction;
import java.util.UUID;

/**
 * {@code POST /v1/requests} with {@code v2SurveyResponseId} (partner-api.md, Requests): the
 * response must exist and be the partner's; it backs one request only; its summary goes to
 * {@code caseNotes}. {@link #check} answers the refusals before the request's transaction (with no
 * transaction of the caller's open); the request's inserting statement
 * ({@link com.telemed.requests.request.NewRequestRows}) takes the response for the request under the
 * condition that it is still free (the update's row lock makes a concurrent create wait for this
 * one's end and then find it taken), so of two creates with one response exactly one commits and
 * the other rolls back whole (no request, no link).
 */
public final class SurveyLinks {

    public static final String NOT_FOUND = "v2SurveyResponseId not found";
    public static final String OTHER_PARTNER = "v2SurveyResponseId does not belong to this partner";
    public static final String ALREADY_USED = "v2SurveyResponseId has already been used for a request";
    public static final String OTHER_MEMBER = "v2SurveyResponseId belongs to another member";
    /** Between the partner's {@code caseNotes} and the generated summary when both are sent. */
    public static final String SEPARATOR = "\n---\n";

    private SurveyLinks() {
    }

    /** A response that may back the request, and its summary for {@code caseNotes}. */
    public record Link(UUID responseId, String summary) {
    }

    /**
     * {@code 400 v2SurveyResponseId not found} (unknown or not a UUID), {@code 400 ... does not
     * belong to this partner}, {@code 400 ... has already been used for a request}, and
     * {@code 400 ... belongs to another member} for a returning member's (refill) response sent
     * for another member: its answers are that member's.
     */
    public static Link check(String partnerId, String responseId, UUID memberId) {
        UUID id = Ids.uuid(responseId).orElseThrow(() -> ApiException.badRequest(NOT_FOUND));
        return QuarkusTransaction.requiringNew().call(() -> {
            SurveyResponse response = SurveyResponse.findById(id);
            if (response == null) {
                throw ApiException.badRequest(NOT_FOUND);
            }
            if (!response.partnerId.equals(partnerId)) {
                throw ApiException.badRequest(OTHER_PARTNER);
            }
            if (response.requestId != null) {
                throw ApiException.badRequest(ALREADY_USED);
            }
            if (SurveyResponse.REFILL.equals(response.mode) && !response.memberId.equals(memberId)) {
                throw ApiException.badRequest(OTHER_MEMBER);
            }
            return new Link(id, SurveyAnswers.summary(response.answers));
        });
    }

    /**
     * The stored notes: the partner's text, {@link #SEPARATOR}, then the summary; either alone
     * when the other is absent (or the summary empty: nothing was answered).
     */
    public static String caseNotes(String partnerNotes, String summary) {
        if (summary == null || summary.isEmpty()) {
            return partnerNotes;
        }
        return partnerNotes == null ? summary : partnerNotes + SEPARATOR + summary;
    }
}
