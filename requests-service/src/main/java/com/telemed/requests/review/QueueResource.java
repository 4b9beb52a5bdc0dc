package com.telemed.requests.review;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.telemed.common.validation.NumberSchema;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** The review queue of the prescriber console (operations-api.md, "Review"). */
@Path("/ops/v1/review")
@Produces(MediaType.APPLICATION_JSON)
public class QueueResource {

    private static final int DEFAULT_LIMIT = 50;

    private final Review review;

    public QueueResource(Review review) {
        this.review = review;
    }

    @Tag(name = "Review")
    @Operation(operationId = "reviewQueue", summary = "Requests awaiting a decision, oldest first", description = """
        The filters are optional and combine: `drugId`, requests with an item of that drug; `partnerId`,
        the partner's requests; `prescriberId`, requests claimed by that prescriber. An unknown value
        matches nothing (an empty list).
        """)
    @Parameter(name = "limit", in = ParameterIn.QUERY, schema = @Schema(type = SchemaType.INTEGER, minimum = "1"))
    @Parameter(name = "drugId", in = ParameterIn.QUERY, description = "Requests with an item of this drug.", schema = @Schema(type = SchemaType.STRING, minLength = 1, maxLength = 100))
    @Parameter(name = "partnerId", in = ParameterIn.QUERY, description = "The partner's requests.", schema = @Schema(type = SchemaType.STRING, minLength = 1, maxLength = 100))
    @Parameter(name = "prescriberId", in = ParameterIn.QUERY, description = "Requests claimed by this prescriber.", schema = @Schema(type = SchemaType.STRING, minLength = 1, maxLength = 100))
    @APIResponse(responseCode = "200", description = "The queue", content = @Content(mediaType = "application/json", schema = @Schema(ref = "ReviewQueue200")))
    @APIResponse(responseCode = "400", ref = "ValidationFailed")
    @GET
    @Path("/queue")
    public ReviewViews.Queue queue(@QueryParam("limit") String limit, @QueryParam("drugId") String drugId,
                                   @QueryParam("partnerId") String partnerId, @QueryParam("prescriberId") String prescriberId) {
        ObjectNode query = JsonNodeFactory.instance.objectNode();
        put(query, "limit", limit);
        put(query, "drugId", drugId);
        put(query, "partnerId", partnerId);
        put(query, "prescriberId", prescriberId);
        ReviewSchemas.QUEUE_QUERY.validate(query);
        return review.queue(new Review.QueueQuery(
                limit == null ? DEFAULT_LIMIT : NumberSchema.read(query.get("limit")).intValueExact(),
                drugId, partnerId, prescriberId));
    }

    private static void put(ObjectNode query, String name, String value) {
        if (value != null) {
            query.put(name, value);
        }
    }
}
