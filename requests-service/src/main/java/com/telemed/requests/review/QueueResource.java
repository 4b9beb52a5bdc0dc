package com.telemed.requests.review;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.telemed.common.validation.NumberSchema;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/** The review queue of the prescriber console (operations-api.md, "Review"). */
@Path("/ops/v1/review")
@Produces(MediaType.APPLICATION_JSON)
public class QueueResource {

    private static final int DEFAULT_LIMIT = 50;

    private final Review review;

    public QueueResource(Review review) {
        this.review = review;
    }

    @GET
    @Path("/queue")
    public ReviewViews.Queue queue(@QueryParam("limit") String limit) {
        ObjectNode query = JsonNodeFactory.instance.objectNode();
        if (limit != null) {
            query.put("limit", limit);
        }
        ReviewSchemas.QUEUE_QUERY.validate(query);
        return review.queue(limit == null ? DEFAULT_LIMIT : NumberSchema.read(query.get("limit")).intValueExact());
    }
}
