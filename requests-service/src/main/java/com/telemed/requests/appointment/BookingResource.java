package com.telemed.requests.appointment;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
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
 * {@code POST /ops/v1/bookings/:token/appointment} (operations-api.md, "Consultations"): the
 * hosted booking page books a slot with the link's token; {@code 201 {appointment}}.
 */
@Path("/ops/v1/bookings")
@Produces(MediaType.APPLICATION_JSON)
public class BookingResource {

    private final Appointments appointments;

    public BookingResource(Appointments appointments) {
        this.appointments = appointments;
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
        return Response.status(201).entity(appointments.book(token, body)).build();
    }
}
