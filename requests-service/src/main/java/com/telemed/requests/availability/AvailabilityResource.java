package com.telemed.requests.availability;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.common.validation.Binding;
import com.telemed.requests.prescriber.InPerson;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** A prescriber's weekly hours and open slots (people-and-pages.md, "Availability and slots"). */
@Path("/ops/v1/prescribers/{id}")
@Produces(MediaType.APPLICATION_JSON)
public class AvailabilityResource {

    private final Availabilities availabilities;
    private final InPerson inPerson;

    public AvailabilityResource(Availabilities availabilities, InPerson inPerson) {
        this.availabilities = availabilities;
        this.inPerson = inPerson;
    }

    @Tag(name = "Prescribers")
    @Operation(operationId = "putAvailability", summary = "Set the prescriber's weekly hours (replaces them)")
    @Parameter(name = "id", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(ref = "AvailabilityBody")))
    @APIResponse(responseCode = "200", description = "`{ availability: { prescriberId, timezone, weekly, slotMinutes, updatedAt } }`",
            content = @Content(mediaType = "application/json", schema = @Schema(type = SchemaType.OBJECT)))
    @APIResponse(responseCode = "400", ref = "ValidationFailed")
    @APIResponse(responseCode = "404", ref = "NotFound")
    @PUT
    @Path("/availability")
    @Consumes(MediaType.APPLICATION_JSON)
    public AvailabilityViews.Envelope put(@PathParam("id") String id, JsonNode body) {
        // A prescriber sets their own hours; an administrator anyone's (403 Prescriber mismatch).
        inPerson.requireOwn(id);
        return availabilities.put(id, Binding.bind(AvailabilitySchemas.PUT, body, AvailabilityInput.class));
    }

    @Tag(name = "Prescribers")
    @Operation(operationId = "getAvailability", summary = "The prescriber's weekly hours")
    @Parameter(name = "id", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @APIResponse(responseCode = "200", description = "`{ availability: { prescriberId, timezone, weekly, slotMinutes, updatedAt } }`",
            content = @Content(mediaType = "application/json", schema = @Schema(type = SchemaType.OBJECT)))
    @APIResponse(responseCode = "404", description = "`Prescriber not found`, or `Availability not set`",
            content = @Content(mediaType = "application/json", schema = @Schema(ref = "ErrorMessage")))
    @GET
    @Path("/availability")
    public AvailabilityViews.Envelope get(@PathParam("id") String id) {
        return availabilities.get(id);
    }

    @Tag(name = "Prescribers")
    @Operation(operationId = "getSlots", summary = "The prescriber's open slots starting in [from, to)")
    @Parameter(name = "id", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @Parameter(name = "from", in = ParameterIn.QUERY, required = true, description = "ISO 8601 date-time with `Z` or an offset",
            schema = @Schema(type = SchemaType.STRING))
    @Parameter(name = "to", in = ParameterIn.QUERY, required = true, description = "after `from`, at most 31 days on",
            schema = @Schema(type = SchemaType.STRING))
    @APIResponse(responseCode = "200", description = "`{ slots: [{ startTime, endTime }] }`, sorted; none without hours",
            content = @Content(mediaType = "application/json", schema = @Schema(type = SchemaType.OBJECT)))
    @APIResponse(responseCode = "400", ref = "ValidationFailed")
    @APIResponse(responseCode = "404", ref = "NotFound")
    @GET
    @Path("/slots")
    public AvailabilityViews.Slots slots(@PathParam("id") String id, @QueryParam("from") String from, @QueryParam("to") String to) {
        return availabilities.slots(id, AvailabilitySchemas.range(from, to));
    }
}
