package com.telemed.requests.appointment;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.common.validation.Binding;
import com.telemed.requests.prescriber.InPerson;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.UriInfo;
import java.util.Optional;
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
 * An appointment's calls (operations-api.md, "Consultations"): reschedule, cancel, record the
 * outcome of, and read. Each answers {@code {appointment}}; booking is {@link BookingResource}.
 * And the console's list of a prescriber's appointments (interfaces.md D2, issue #41).
 */
@Path("/ops/v1/appointments")
@Produces(MediaType.APPLICATION_JSON)
public class AppointmentResource {

    private final Appointments appointments;
    private final AppointmentReads reads;
    private final InPerson inPerson;

    public AppointmentResource(Appointments appointments, AppointmentReads reads, InPerson inPerson) {
        this.appointments = appointments;
        this.reads = reads;
        this.inPerson = inPerson;
    }

    @Tag(name = "Consultations")
    @Operation(operationId = "listAppointments", summary = "A prescriber's appointments between from and to, by start time")
    @Parameter(name = "prescriberId", in = ParameterIn.QUERY, description = "Required but for a prescriber in person (theirs when left out; another's: 403 `Prescriber mismatch`)",
            schema = @Schema(type = SchemaType.STRING, minLength = 1, maxLength = 100))
    @Parameter(name = "from", in = ParameterIn.QUERY, description = "ISO 8601 date-time with `Z` or an offset; now when not sent",
            schema = @Schema(type = SchemaType.STRING))
    @Parameter(name = "to", in = ParameterIn.QUERY, description = "after `from`, at most 62 days on; 31 days after `from` when not sent",
            schema = @Schema(type = SchemaType.STRING))
    @Parameter(name = "limit", in = ParameterIn.QUERY, schema = @Schema(type = SchemaType.INTEGER, minimum = "1", maximum = "200", defaultValue = "100"))
    @APIResponse(responseCode = "200", description = "The appointments that end after `from` and start before `to`",
            content = @Content(mediaType = "application/json", schema = @Schema(ref = "Appointments200")))
    @APIResponse(responseCode = "400", ref = "ValidationFailed")
    @APIResponse(responseCode = "401", ref = "OpsUnauthorized")
    @APIResponse(responseCode = "403", description = "`Forbidden` (the role table), `A prescriber must act in person` (the operator key in production), or `Prescriber mismatch` (a prescriber naming another)",
            content = @Content(mediaType = "application/json", schema = @Schema(ref = "ErrorMessage")))
    @GET
    public AppointmentView.Listing list(@Context UriInfo uri) {
        // Read from the query itself: "limit=" is sent, and refused, not absent.
        MultivaluedMap<String, String> sent = uri.getQueryParameters();
        Optional<String> own = inPerson.prescriber();
        AppointmentSchemas.ListQuery query = AppointmentSchemas.listQuery(sent.getFirst("prescriberId"), sent.getFirst("from"),
                sent.getFirst("to"), sent.getFirst("limit"), own.isEmpty(), appointments.now());
        String prescriberId = query.prescriberId() != null ? query.prescriberId() : own.orElseThrow();
        // A prescriber lists their own appointments (403 Prescriber mismatch), unless an administrator too.
        inPerson.requireOwn(prescriberId);
        return reads.list(new AppointmentSchemas.ListQuery(prescriberId, query.from(), query.to(), query.limit()));
    }

    @Tag(name = "Consultations")
    @Operation(operationId = "appointment_reschedule", summary = "Move it (appointment.rescheduled)")
    @Parameter(name = "id", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(ref = "RescheduleAppointmentBody")))
    @APIResponse(responseCode = "200", ref = "Appointment")
    @APIResponse(responseCode = "400", ref = "ValidationFailed")
    @APIResponse(responseCode = "404", ref = "NotFound")
    @APIResponse(responseCode = "409", ref = "Conflict")
    @POST
    @Path("/{id}/reschedule")
    @Consumes(MediaType.APPLICATION_JSON)
    public AppointmentView reschedule(@PathParam("id") String id, JsonNode body) {
        return appointments.reschedule(id, Binding.bind(AppointmentSchemas.reschedule(appointments::now), body, RescheduleInput.class));
    }

    @Tag(name = "Consultations")
    @Operation(operationId = "appointment_cancel", summary = "Cancel it (appointment.cancelled)")
    @Parameter(name = "id", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(ref = "CancelAppointmentBody")))
    @APIResponse(responseCode = "200", ref = "Appointment")
    @APIResponse(responseCode = "400", ref = "ValidationFailed")
    @APIResponse(responseCode = "404", ref = "NotFound")
    @APIResponse(responseCode = "409", ref = "Conflict")
    @POST
    @Path("/{id}/cancel")
    @Consumes(MediaType.APPLICATION_JSON)
    public AppointmentView cancel(@PathParam("id") String id, JsonNode body) {
        return appointments.cancel(id, Binding.bind(AppointmentSchemas.CANCEL, body, CancelInput.class));
    }

    @Tag(name = "Consultations")
    @Operation(operationId = "appointment_outcome", summary = "Record it held or missed")
    @Parameter(name = "id", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(ref = "AppointmentOutcomeBody")))
    @APIResponse(responseCode = "200", ref = "Appointment")
    @APIResponse(responseCode = "400", ref = "ValidationFailed")
    @APIResponse(responseCode = "404", ref = "NotFound")
    @APIResponse(responseCode = "409", ref = "Conflict")
    @POST
    @Path("/{id}/outcome")
    @Consumes(MediaType.APPLICATION_JSON)
    public AppointmentView outcome(@PathParam("id") String id, JsonNode body) {
        return appointments.outcome(id, Binding.bind(AppointmentSchemas.OUTCOME, body, OutcomeInput.class), inPerson::requireOwn);
    }

    @Tag(name = "Consultations")
    @Operation(operationId = "getAppointment")
    @Parameter(name = "id", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @APIResponse(responseCode = "200", ref = "Appointment")
    @APIResponse(responseCode = "404", ref = "NotFound")
    @GET
    @Path("/{id}")
    public AppointmentView get(@PathParam("id") String id) {
        return reads.get(id);
    }
}
