package com.telemed.requests.appointment;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.common.validation.Binding;
import com.telemed.requests.availability.AvailabilitySchemas;
import com.telemed.requests.availability.AvailabilityViews;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * The booking page's calls with a link's token (operations-api.md, "Consultations";
 * people-and-pages.md, "Patient pages"): read the link and the prescriber's open slots, book a
 * slot ({@code 201 {appointment}}), then move or cancel the appointment until it starts.
 */
@Path("/ops/v1/bookings")
@Produces(MediaType.APPLICATION_JSON)
public class BookingResource {

    private final Appointments appointments;
    private final BookingLinks links;

    public BookingResource(Appointments appointments, BookingLinks links) {
        this.appointments = appointments;
        this.links = links;
    }

    @Tag(name = "Consultations")
    @Operation(operationId = "getBooking", summary = "A booking link's state, prescriber and appointment (never the prescriber's email)")
    @Parameter(name = "token", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @APIResponse(responseCode = "200", description = "`{ booking: { status: open | booked | cancelled | closed, expiresAt, prescriberName, slotMinutes, appointment } }`",
            content = @Content(mediaType = "application/json", schema = @Schema(type = SchemaType.OBJECT)))
    @APIResponse(responseCode = "404", ref = "NotFound")
    @APIResponse(responseCode = "410", description = "The booking link expired with nothing booked", content = @Content(mediaType = "application/json", schema = @Schema(ref = "ErrorMessage")))
    @GET
    @Path("/{token}")
    public BookingView booking(@PathParam("token") String token) {
        return links.booking(token);
    }

    @Tag(name = "Consultations")
    @Operation(operationId = "getBookingSlots", summary = "The link's prescriber's open slots starting in [from, to)")
    @Parameter(name = "token", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @Parameter(name = "from", in = ParameterIn.QUERY, required = true, description = "ISO 8601 date-time with `Z` or an offset",
            schema = @Schema(type = SchemaType.STRING))
    @Parameter(name = "to", in = ParameterIn.QUERY, required = true, description = "after `from`, at most 31 days on",
            schema = @Schema(type = SchemaType.STRING))
    @APIResponse(responseCode = "200", description = "`{ slots: [{ startTime, endTime }] }`, sorted; none without hours",
            content = @Content(mediaType = "application/json", schema = @Schema(type = SchemaType.OBJECT)))
    @APIResponse(responseCode = "400", ref = "ValidationFailed")
    @APIResponse(responseCode = "404", ref = "NotFound")
    @APIResponse(responseCode = "410", description = "The booking link expired with nothing booked", content = @Content(mediaType = "application/json", schema = @Schema(ref = "ErrorMessage")))
    @GET
    @Path("/{token}/slots")
    public AvailabilityViews.Slots slots(@PathParam("token") String token, @QueryParam("from") String from, @QueryParam("to") String to) {
        return links.slots(token, AvailabilitySchemas.range(from, to));
    }

    @Tag(name = "Consultations")
    @Operation(operationId = "book", summary = "Book a slot with a booking link (appointment.booked)")
    @Parameter(name = "token", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(ref = "BookBody")))
    @APIResponse(responseCode = "201", ref = "Appointment")
    @APIResponse(responseCode = "400", ref = "ValidationFailed")
    @APIResponse(responseCode = "404", ref = "NotFound")
    @APIResponse(responseCode = "409", ref = "Conflict")
    @APIResponse(responseCode = "410", description = "The booking link expired", content = @Content(mediaType = "application/json", schema = @Schema(ref = "ErrorMessage")))
    @POST
    @Path("/{token}/appointment")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response book(@PathParam("token") String token, JsonNode body) {
        return Response.status(201).entity(appointments.book(token, Binding.bind(AppointmentSchemas.book(appointments::now), body, BookInput.class))).build();
    }

    @Tag(name = "Consultations")
    @Operation(operationId = "rescheduleBooking", summary = "The patient moves the link's appointment (appointment.rescheduled)")
    @Parameter(name = "token", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(ref = "LinkRescheduleBody")))
    @APIResponse(responseCode = "200", ref = "Appointment")
    @APIResponse(responseCode = "400", ref = "ValidationFailed")
    @APIResponse(responseCode = "404", ref = "NotFound")
    @APIResponse(responseCode = "409", ref = "Conflict")
    @APIResponse(responseCode = "410", description = "The booking link expired with nothing booked", content = @Content(mediaType = "application/json", schema = @Schema(ref = "ErrorMessage")))
    @POST
    @Path("/{token}/appointment/reschedule")
    @Consumes(MediaType.APPLICATION_JSON)
    public AppointmentView reschedule(@PathParam("token") String token, JsonNode body) {
        return appointments.rescheduleByLink(token, Binding.bind(AppointmentSchemas.linkReschedule(appointments::now), body,
                LinkRescheduleInput.class));
    }

    @Tag(name = "Consultations")
    @Operation(operationId = "cancelBooking", summary = "The patient cancels the link's appointment (appointment.cancelled, cancelledBy patient)")
    @Parameter(name = "token", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @RequestBody(content = @Content(mediaType = "application/json", schema = @Schema(ref = "LinkCancelBody")))
    @APIResponse(responseCode = "200", ref = "Appointment")
    @APIResponse(responseCode = "400", ref = "ValidationFailed")
    @APIResponse(responseCode = "404", ref = "NotFound")
    @APIResponse(responseCode = "409", ref = "Conflict")
    @APIResponse(responseCode = "410", description = "The booking link expired with nothing booked", content = @Content(mediaType = "application/json", schema = @Schema(ref = "ErrorMessage")))
    @POST
    @Path("/{token}/appointment/cancel")
    @Consumes(MediaType.APPLICATION_JSON)
    public AppointmentView cancel(@PathParam("token") String token, JsonNode body) {
        return appointments.cancelByLink(token, Binding.bind(AppointmentSchemas.LINK_CANCEL, body, LinkCancelInput.class));
    }
}
