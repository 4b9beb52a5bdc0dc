package com.telemed.requests.appointment;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

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

    @POST
    @Path("/{token}/appointment")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response book(@PathParam("token") String token, JsonNode body) {
        return Response.status(201).entity(appointments.book(token, body)).build();
    }
}
