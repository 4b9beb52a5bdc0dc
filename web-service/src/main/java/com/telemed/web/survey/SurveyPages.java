package com.telemed.web.survey;

import com.telemed.common.error.ApiException;
import com.telemed.web.gateway.GatewayClient;
import com.telemed.web.page.ErrorView;
import com.telemed.web.page.PageError;
import com.telemed.web.page.Pages;
import com.telemed.web.page.Refusal;
import com.telemed.web.requests.RequestsApi;
import com.telemed.web.requests.RequestsClient;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.MultivaluedMap;
import java.util.List;
import java.util.Optional;

/**
 * The hosted survey (people-and-pages.md, "Patient pages"; interfaces39.md C): a new patient's by a
 * partner's publishable key (the gateway checks the key and forwards its partner), a returning member's
 * by a survey token. The definition and the checks are requests-service's embed endpoints'; the
 * {@code return=} allow-list is the gateway's.
 */
@ApplicationScoped
public class SurveyPages {

    private final RequestsClient requests;
    private final GatewayClient gateway;

    public SurveyPages(RequestsClient requests, GatewayClient gateway) {
        this.requests = requests;
        this.gateway = gateway;
    }

    /**
     * Which survey a page is and for whom: {@code surveyId} (a new patient's, by key) or {@code token} (a
     * returning member's); {@code partnerId} the gateway's header (null when it sent none); {@code key} and
     * {@code returnUrl} the page's query, carried into the form's action.
     */
    public record Source(String surveyId, String token, String partnerId, String key, String returnUrl) {

        static Source byKey(String surveyId, String partnerId, String key, String returnUrl) {
            return new Source(surveyId, null, blankToNull(partnerId), key, returnUrl);
        }

        static Source byToken(String token, String partnerId, String key, String returnUrl) {
            return new Source(null, token, blankToNull(partnerId), key, returnUrl);
        }

        boolean newPatient() {
            return surveyId != null;
        }

        /** The page's own address: its path, then {@code key} and {@code return} when it has them. */
        String action() {
            StringBuilder action = new StringBuilder(newPatient() ? "/surveys/" + Pages.encode(surveyId) : "/surveys/t/" + Pages.encode(token));
            char separator = '?';
            if (key != null && !key.isEmpty()) {
                action.append(separator).append("key=").append(Pages.encode(key));
                separator = '&';
            }
            if (returnUrl != null && !returnUrl.isEmpty()) {
                action.append(separator).append("return=").append(Pages.encode(returnUrl));
            }
            return action.toString();
        }
    }

    /**
     * A page's answer: a redirect ({@code location}), or a page ({@code survey} or {@code thanks}) with its
     * status; {@code formOrigin} the return origin the form may be answered with a redirect to, or null.
     */
    public record Answer(int status, String location, SurveyView survey, ThanksView thanks, String formOrigin) {
    }

    public Answer show(Source given) {
        Source source = withPartner(given);
        RequestsApi.Survey survey = definition(source);
        return new Answer(200, null, SurveyForm.view(survey, source.action(), source.newPatient(), null, List.of()), null,
                returnOrigin(source).orElse(null));
    }

    public Answer submit(Source given, MultivaluedMap<String, String> form) {
        Source source = withPartner(given);
        RequestsApi.Survey survey = definition(source);
        // Asked before the submission: once the answers are stored, nothing may fail the page.
        Optional<String> origin = returnOrigin(source);
        RequestsApi.Submitted submitted;
        try {
            var body = SurveyForm.body(survey, form, source.newPatient());
            submitted = source.newPatient()
                    ? requests.submit(source.partnerId(), source.surveyId(), body)
                    : requests.submitWithToken(source.partnerId(), source.token(), body);
        } catch (Refusal refusal) {
            if (refusal.status() == 400 && !refusal.issues().isEmpty()) {
                return new Answer(400, null, SurveyForm.view(survey, source.action(), source.newPatient(), form, refusal.issues()),
                        null, origin.orElse(null));
            }
            throw surveyError(refusal);
        }
        if (origin.isPresent()) {
            return new Answer(303, ReturnUrls.withResponseId(source.returnUrl(), Pages.encode(submitted.responseId())), null, null,
                    null);
        }
        return new Answer(200, null, null, new ThanksView("Thank you", "Your answers have been sent. You can close this page."), null);
    }

    /**
     * A returning member's page comes with its token only (the gateway adds a partner for a key, and
     * {@code /surveys/t/<token>} has none): the token's partner, from requests-service, for the reads,
     * the submission and the return allow-list. A token no longer usable is the invalid-link page.
     */
    private Source withPartner(Source source) {
        if (source.newPatient() || source.partnerId() != null) {
            return source;
        }
        try {
            return new Source(null, source.token(), requests.partnerOfToken(source.token()), source.key(), source.returnUrl());
        } catch (Refusal refusal) {
            throw surveyError(refusal);
        }
    }

    private RequestsApi.Survey definition(Source source) {
        if (source.newPatient() && source.partnerId() == null) {
            throw invalidLink();
        }
        try {
            return source.newPatient()
                    ? requests.survey(source.partnerId(), source.surveyId())
                    : requests.surveyOfToken(source.partnerId(), source.token());
        } catch (Refusal refusal) {
            throw surveyError(refusal);
        }
    }

    /**
     * The return origin when {@code return} is on the partner's allow-list (the gateway is asked only when
     * there is a {@code return} to check). While the gateway cannot say, there is none: the patient gets
     * the thank-you page rather than an error for answers that were kept.
     */
    private Optional<String> returnOrigin(Source source) {
        if (source.partnerId() == null || ReturnUrls.origin(source.returnUrl()).isEmpty()) {
            return Optional.empty();
        }
        try {
            return ReturnUrls.allowedOrigin(source.returnUrl(), gateway.embedOrigins(source.partnerId()));
        } catch (ApiException unavailable) {
            return Optional.empty();
        }
    }

    private static PageError surveyError(Refusal refusal) {
        return switch (refusal.status()) {
            case 401 -> invalidLink();
            case 400, 404 -> new PageError(404, "Survey not found",
                    "There is no survey at this address. Check that you copied the whole link, or ask the service that sent it.");
            default -> new PageError(ErrorView.forStatus(refusal.status()));
        };
    }

    private static PageError invalidLink() {
        return new PageError(401, "This survey link is not valid",
                "The link may be incomplete, it may have expired, or it may have been used already. Ask the service that sent it for a new one.");
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value;
    }
}
