package com.telemed.webhook.events;

import com.telemed.common.partner.PartnerContext;
import com.telemed.webhook.delivery.DeliveryLog;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.ExampleObject;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * A partner's events from a cursor, one event, and its redelivery (partner-extensions.md, Events).
 * The partner is the one the gateway proved ({@code X-Partner-Id}); every read is scoped by it.
 */
@Path("/v1/events")
@Produces(MediaType.APPLICATION_JSON)
public class EventsResource {

    private final EventReads reads;
    private final DeliveryLog deliveries;
    private final PartnerContext partner;

    public EventsResource(EventReads reads, DeliveryLog deliveries, PartnerContext partner) {
        this.reads = reads;
        this.deliveries = deliveries;
        this.partner = partner;
    }

    @Tag(name = "Events")
    @Operation(operationId = "listEvents", summary = "The partner's events, oldest first, strictly after a cursor")
    @Parameter(name = "after", in = ParameterIn.QUERY, description = "An event id: the `nextCursor` of the page before (absent: from the oldest kept)", schema = @Schema(type = SchemaType.STRING))
    @Parameter(name = "types", in = ParameterIn.QUERY, description = "Comma-separated event names; only those", schema = @Schema(type = SchemaType.STRING))
    @Parameter(name = "limit", in = ParameterIn.QUERY, schema = @Schema(type = SchemaType.INTEGER, minimum = "1", maximum = "100", defaultValue = "20"))
    @APIResponse(responseCode = "200", description = "One page", content = @Content(mediaType = "application/json", schema = @Schema(ref = "EventPage")))
    @APIResponse(responseCode = "400", description = "Unknown cursor, an unknown type or `limit` out of range", content = @Content(mediaType = "application/json", schema = @Schema(ref = "Error"), examples = {
                @ExampleObject(name = "cursor", ref = "listEvents.cursor"),
                @ExampleObject(name = "types", ref = "listEvents.types"),
                @ExampleObject(name = "limit", ref = "listEvents.limit")}))
    @GET
    public EventsViews.Page list(@Context UriInfo uri) {
        // Read from the query itself: "limit=" is sent, and refused, not absent.
        MultivaluedMap<String, String> query = uri.getQueryParameters();
        EventsSchemas.Query page = EventsSchemas.query(query.getFirst("after"), query.getFirst("types"), query.getFirst("limit"));
        return reads.page(partner.partnerId(), page.after(), page.types(), page.limit());
    }

    @Tag(name = "Events")
    @Operation(operationId = "getEvent", summary = "One event, with its delivery state")
    @Parameter(name = "id", in = ParameterIn.PATH, required = true, description = "The event id (the webhook's `X-Webhook-Id`)", schema = @Schema(type = SchemaType.STRING))
    @APIResponse(responseCode = "200", description = "The event", content = @Content(mediaType = "application/json", schema = @Schema(ref = "EventEnvelope")))
    @APIResponse(responseCode = "404", ref = "EventNotFound")
    @GET
    @Path("/{id}")
    public EventsViews.EventEnvelope get(@PathParam("id") String id) {
        return new EventsViews.EventEnvelope(reads.one(partner.partnerId(), id).view());
    }

    @Tag(name = "Events")
    @Operation(operationId = "redeliverEvent", summary = "Send the event's webhook again: a fresh timestamp and signature, the same X-Webhook-Id")
    @Parameter(name = "id", in = ParameterIn.PATH, required = true, description = "The event id (the webhook's `X-Webhook-Id`)", schema = @Schema(type = SchemaType.STRING))
    @APIResponse(responseCode = "202", description = "Accepted; sent in the background", content = @Content(mediaType = "application/json", schema = @Schema(ref = "EventAccepted")))
    @APIResponse(responseCode = "404", ref = "EventNotFound")
    @APIResponse(responseCode = "409", ref = "NoWebhookUrl")
    @POST
    @Path("/{id}/redeliver")
    public Response redeliver(@PathParam("id") String id) {
        String partnerId = partner.partnerId();
        EventReads.Stored stored = reads.one(partnerId, id);
        EventsViews.Event event = stored.view();
        deliveries.redeliverEvent(partnerId, event.id(), stored.envelopeId(), event.type(), event.data());
        return Response.accepted(new EventsViews.Accepted(event.id())).build();
    }
}
