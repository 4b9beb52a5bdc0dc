package com.telemed.requests.simulation;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.common.partner.PartnerContext;
import com.telemed.common.validation.Binding;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.ExampleObject;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * {@code /v1/sandbox} (partner-extensions.md, "Sandbox simulation"): the partner plays the other
 * side of its own sandbox request. Outside sandbox the gate ({@link SandboxGate}) answers every
 * route {@code 404} before this resource is reached.
 */
@Path("/v1/sandbox")
@Produces(MediaType.APPLICATION_JSON)
public class SimulationResource {

    private final Simulations simulations;
    private final PartnerContext partner;

    public SimulationResource(Simulations simulations, PartnerContext partner) {
        this.simulations = simulations;
        this.partner = partner;
    }

    @Tag(name = "Sandbox")
    @Operation(operationId = "simulateRequest", summary = "Play the prescriber, the patient or the pharmacy on a sandbox request", description = """
        Sandbox deployments only (production answers every `/v1/sandbox` route `404 {"error":"Not Found"}`).
        One step, through the same code path as the real actor, so the webhooks are exactly the real
        step's: `approve` (the sandbox prescriber signs with the SKU's defaults), `deny` (`reason` kept),
        `request_consultation`, `book` (the patient books the next open slot), `complete_consultation`
        (outcome held: the item is pending again), `ship` (tracking fields as sent, else generated; an
        approved item not yet transmitted is transmitted first), `deliver`, `prescriber_message`
        (`text`, else a default). `itemId` is needed when the request has more than one live item.
        """)
    @Parameter(name = "id", in = ParameterIn.PATH, required = true, description = "Request UUID", schema = @Schema(type = SchemaType.STRING))
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(ref = "SimulateBody")))
    @APIResponse(responseCode = "200", description = "The request as `GET /v1/requests/:id` shows it after the step committed", content = @Content(mediaType = "application/json", schema = @Schema(ref = "SimulatedRequest")))
    @APIResponse(responseCode = "400", description = "Validation failed (array of issues): an unknown action, or no `itemId` where one is needed", content = @Content(mediaType = "application/json", schema = @Schema(ref = "Error"), examples = {
                @ExampleObject(name = "unknownAction", ref = "simulateRequest.unknownAction"),
                @ExampleObject(name = "itemIdRequired", ref = "simulateRequest.itemIdRequired"),
                @ExampleObject(name = "invalidJson", ref = "InvalidJson")}))
    @APIResponse(responseCode = "404", description = "Unknown request or line item; in production, every sandbox route", content = @Content(mediaType = "application/json", schema = @Schema(ref = "ErrorMessage"), examples = {
                @ExampleObject(name = "request", ref = "simulateRequest.requestNotFound"),
                @ExampleObject(name = "item", ref = "simulateRequest.itemNotFound"),
                @ExampleObject(name = "production", ref = "simulateRequest.production")}))
    @APIResponse(responseCode = "409", description = "The item's state does not allow the step", content = @Content(mediaType = "application/json", schema = @Schema(ref = "ErrorMessage"), examples = {
                @ExampleObject(name = "state", ref = "simulateRequest.state")}))
    @POST
    @Path("/requests/{id}/simulate")
    @Consumes(MediaType.APPLICATION_JSON)
    public SimulationViews.Simulated simulate(@PathParam("id") String id, JsonNode body) {
        String partnerId = partner.partnerId();
        SimulationInput input = Binding.bind(SimulationSchemas.SIMULATE, body, SimulationInput.class);
        return simulations.simulate(partnerId, id, input);
    }
}
