package com.telemed.web.requests;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.Instant;
import java.util.List;

/**
 * requests-service's endpoints the pages use (requests-service/README.md: the booking link's reads and
 * changes under {@code /ops/v1/bookings}, the embed survey under {@code /v2/embed}). Used only through
 * {@link RequestsClient}.
 */
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public interface RequestsApi {

    String PARTNER_HEADER = "X-Partner-Id";

    @GET
    @Path("/ops/v1/bookings/{token}")
    BookingAnswer booking(@PathParam("token") String token);

    @GET
    @Path("/ops/v1/bookings/{token}/slots")
    SlotsAnswer slots(@PathParam("token") String token, @QueryParam("from") String from, @QueryParam("to") String to);

    @POST
    @Path("/ops/v1/bookings/{token}/appointment")
    AppointmentAnswer book(@PathParam("token") String token, Book body);

    @POST
    @Path("/ops/v1/bookings/{token}/appointment/reschedule")
    AppointmentAnswer reschedule(@PathParam("token") String token, Reschedule body);

    @POST
    @Path("/ops/v1/bookings/{token}/appointment/cancel")
    AppointmentAnswer cancel(@PathParam("token") String token, JsonNode body);

    @GET
    @Path("/v2/embed/surveys/{surveyId}")
    SurveyAnswer survey(@HeaderParam(PARTNER_HEADER) String partnerId, @PathParam("surveyId") String surveyId);

    @POST
    @Path("/v2/embed/surveys/{surveyId}/responses")
    Submitted submit(@HeaderParam(PARTNER_HEADER) String partnerId, @PathParam("surveyId") String surveyId, JsonNode body);

    @GET
    @Path("/v2/embed/by-token/survey")
    SurveyAnswer surveyOfToken(@HeaderParam(PARTNER_HEADER) String partnerId, @QueryParam("token") String token);

    @POST
    @Path("/v2/embed/by-token/responses")
    Submitted submitWithToken(@HeaderParam(PARTNER_HEADER) String partnerId, @QueryParam("token") String token, JsonNode body);

    /** Whose a returning member's token is (requests-service's {@code survey.InternalSurveyTokenResource}). */
    @GET
    @Path("/internal/survey-tokens")
    TokenPartner partnerOfToken(@QueryParam("token") String token);

    record TokenPartner(String partnerId) {
    }

    /** {@code {booking}}: interfaces39.md A.4. */
    record BookingAnswer(Booking booking) {
    }

    /**
     * {@code status}: {@code open}, {@code booked}, {@code cancelled} or {@code closed}; {@code slotMinutes}
     * null while the prescriber has no availability; {@code appointment} the link's, or null.
     */
    record Booking(String status, Instant expiresAt, String prescriberName, Integer slotMinutes, Appointment appointment) {
    }

    /** What the pages read of requests-service's AppointmentView (no patient data there). */
    record Appointment(String id, String status, Instant startTime, Instant endTime, int durationMinutes, String timezone,
                       String cancelledBy) {
    }

    record AppointmentAnswer(Appointment appointment) {
    }

    record SlotsAnswer(List<Slot> slots) {
    }

    record Slot(Instant startTime, Instant endTime) {
    }

    record Book(String startTime, int durationMinutes, String timezone) {
    }

    record Reschedule(String startTime, String timezone) {
    }

    /** {@code {survey}}: the definition as the browser reads it (no disqualification rules). */
    record SurveyAnswer(Survey survey) {
    }

    record Survey(String id, String title, List<Question> questions) {
    }

    /** {@code type}: {@code boolean}, {@code choice} (one of {@code options}), {@code number} or {@code text}. */
    record Question(String id, String text, String type, List<String> options, boolean required) {
    }

    record Submitted(String responseId, boolean qualified) {
    }
}
