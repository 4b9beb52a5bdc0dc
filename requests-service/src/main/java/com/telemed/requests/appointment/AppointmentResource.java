package com.telemed.requests.appointment;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * An appointment's calls (operations-api.md, "Consultations"): reschedule, cancel, record the
 * outcome of, and read. Each answers {@code {appointment}}; booking is {@link BookingResource}.
 */
@Path("/ops/v1/appointments")
@Produces(MediaType.APPLICATION_JSON)
public class AppointmentResource {

    private final Appointments appointments;

    public AppointmentResource(Appointments appointments) {
        this.appointments = appointments;
    }

    @POST
    @Path("/{id}/reschedule")
    @Consumes(MediaType.APPLICATION_JSON)
    public AppointmentView reschedule(@PathParam("id") String id, JsonNode body) {
        return appointments.reschedule(id, body);
    }

    @POST
    @Path("/{id}/cancel")
    @Consumes(MediaType.APPLICATION_JSON)
    public AppointmentView cancel(@PathParam("id") String id, JsonNode body) {
        return appointments.cancel(id, body);
    }

    @POST
    @Path("/{id}/outcome")
    @Consumes(MediaType.APPLICATION_JSON)
    public AppointmentView outcome(@PathParam("id") String id, JsonNode body) {
        return appointments.outcome(id, body);
    }

    @GET
    @Path("/{id}")
    public AppointmentView get(@PathParam("id") String id) {
        return appointments.get(id);
    }
}
