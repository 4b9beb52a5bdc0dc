package com.telemed.webhook.delivery;

import static com.telemed.common.validation.Schemas.number;
import static com.telemed.common.validation.Schemas.object;
import static com.telemed.common.validation.Schemas.string;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.telemed.common.id.Ids;
import com.telemed.common.validation.NumberSchema;
import com.telemed.common.validation.ObjectSchema;
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
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Delivery log and redelivery (operations-api.md, Webhook deliveries). */
@Path("/ops/v1/partners/{partnerId}/webhook/deliveries")
@Produces(MediaType.APPLICATION_JSON)
public class DeliveryResource {

    static final int DEFAULT_LIMIT = 50;

    static final ObjectSchema LIST_QUERY = object()
            .field("limit", number().coerce().integer().min(1).max(100).optional())
            .field("event", string().max(100).optional());

    private final DeliveryLog log;

    public DeliveryResource(DeliveryLog log) {
        this.log = log;
    }

    @Tag(name = "Webhook deliveries")
    @Operation(operationId = "listDeliveries", summary = "Every delivery attempt made for the partner, newest first")
    @Parameter(name = "partnerId", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @Parameter(name = "limit", in = ParameterIn.QUERY, schema = @Schema(type = SchemaType.INTEGER, minimum = "1", maximum = "100", defaultValue = "50"))
    @Parameter(name = "event", in = ParameterIn.QUERY, schema = @Schema(type = SchemaType.STRING, maxLength = 100))
    @APIResponse(responseCode = "200", description = "The delivery log", content = @Content(mediaType = "application/json", schema = @Schema(ref = "ListDeliveries200")))
    @APIResponse(responseCode = "400", ref = "ValidationFailed")
    @GET
    public DeliveryViews.Log list(@PathParam("partnerId") String partnerId, @Context UriInfo uri) {
        MultivaluedMap<String, String> params = uri.getQueryParameters();
        ObjectNode query = JsonNodeFactory.instance.objectNode();
        for (String name : List.of("limit", "event")) {
            String value = params.getFirst(name);
            if (value != null) {
                query.put(name, value);
            }
        }
        LIST_QUERY.validate(query);
        int limit = query.has("limit") ? NumberSchema.read(query.get("limit")).intValueExact() : DEFAULT_LIMIT;
        String event = query.has("event") ? query.get("event").textValue() : null;
        return log.list(partnerId, event, limit);
    }

    /** {@code 202 {delivery}}: accepted, the attempt runs in the background. */
    @Tag(name = "Webhook deliveries")
    @Operation(operationId = "redeliver", summary = "Send the same body again, newly signed (runs in the background)")
    @Parameter(name = "partnerId", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @Parameter(name = "deliveryId", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @APIResponse(responseCode = "202", description = "Accepted", content = @Content(mediaType = "application/json", schema = @Schema(ref = "Redeliver202")))
    @APIResponse(responseCode = "400", description = "Still retrying, or no URL", content = @Content(mediaType = "application/json", schema = @Schema(ref = "Error")))
    @APIResponse(responseCode = "404", ref = "NotFound")
    @POST
    @Path("/{deliveryId}/redeliver")
    public Response redeliver(@PathParam("partnerId") String partnerId, @PathParam("deliveryId") String deliveryId) {
        return Response.accepted(log.redeliver(partnerId, Ids.uuid(deliveryId))).build();
    }
}
