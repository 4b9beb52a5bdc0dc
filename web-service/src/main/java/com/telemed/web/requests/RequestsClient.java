package com.telemed.web.requests;

import com.telemed.web.page.Refusal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.telemed.common.remote.Answers;
import com.telemed.common.remote.RemoteCalls;
import com.telemed.common.remote.RemoteService;
import com.telemed.web.page.ServiceUrls;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.WebApplicationException;
import java.time.Instant;
import java.util.List;
import java.util.function.Supplier;

/**
 * The one way the pages talk to requests-service: the booking link's reads and changes and the
 * embed survey, with the service proof and the platform's one remote-call policy ({@link RemoteCalls}:
 * timeouts, one retry, circuit breaker, {@code 503} when it is down). A status the operation answers
 * on purpose comes back as a {@link Refusal}; anything else is the policy's {@code 503}.
 */
@ApplicationScoped
public class RequestsClient {

    private static final Answers BOOKING_READ = Answers.of(404, 410);
    private static final Answers BOOKING_CHANGE = Answers.of(400, 404, 409, 410);
    private static final Answers SURVEY_READ = Answers.of(400, 401, 404);
    private static final Answers SURVEY_SUBMIT = Answers.of(400, 401, 404);

    private final RequestsApi api;
    private final RemoteService requests;

    public RequestsClient(ServiceUrls urls, RemoteCalls calls) {
        this.api = calls.client(RequestsApi.class, urls.requestsUrl());
        this.requests = calls.service("requests-service");
    }

    public RequestsApi.Booking booking(String token) {
        return call("booking", BOOKING_READ, () -> api.booking(token)).booking();
    }

    public List<RequestsApi.Slot> slots(String token, Instant from, Instant to) {
        List<RequestsApi.Slot> slots = call("booking-slots", BOOKING_READ, () -> api.slots(token, from.toString(), to.toString())).slots();
        return slots == null ? List.of() : slots;
    }

    public RequestsApi.Appointment book(String token, String startTime, int durationMinutes, String timezone) {
        return call("book", BOOKING_CHANGE,
                () -> api.book(token, new RequestsApi.Book(startTime, durationMinutes, timezone))).appointment();
    }

    public RequestsApi.Appointment reschedule(String token, String startTime, String timezone) {
        return call("reschedule", BOOKING_CHANGE,
                () -> api.reschedule(token, new RequestsApi.Reschedule(startTime, timezone))).appointment();
    }

    public RequestsApi.Appointment cancel(String token) {
        return call("cancel", BOOKING_CHANGE, () -> api.cancel(token, JsonNodeFactory.instance.objectNode())).appointment();
    }

    /** The survey a publishable key's partner opens ({@code partnerId} from the gateway's header). */
    public RequestsApi.Survey survey(String partnerId, String surveyId) {
        return call("embed-survey", SURVEY_READ, () -> api.survey(partnerId, surveyId)).survey();
    }

    public RequestsApi.Submitted submit(String partnerId, String surveyId, JsonNode body) {
        return call("embed-submit", SURVEY_SUBMIT, () -> api.submit(partnerId, surveyId, body));
    }

    /**
     * The partner of a returning member's token still usable ({@code 401} otherwise): the hosted page
     * has only the token, and reads and submits as the embed does, with this partner.
     */
    public String partnerOfToken(String token) {
        return call("token-partner", SURVEY_READ, () -> api.partnerOfToken(token)).partnerId();
    }

    /** The survey a returning member's token opens; {@code partnerId} as the gateway forwarded it, or null. */
    public RequestsApi.Survey surveyOfToken(String partnerId, String token) {
        return call("token-survey", SURVEY_READ, () -> api.surveyOfToken(partnerId, token)).survey();
    }

    public RequestsApi.Submitted submitWithToken(String partnerId, String token, JsonNode body) {
        return call("token-submit", SURVEY_SUBMIT, () -> api.submitWithToken(partnerId, token, body));
    }

    private <T> T call(String operation, Answers answers, Supplier<T> call) {
        try {
            return requests.call(operation, answers, call);
        } catch (WebApplicationException answered) {
            throw Refusal.of(answered);
        }
    }

}
