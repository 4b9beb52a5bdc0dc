package com.telemed.requests.prescriber;

import static com.telemed.common.validation.Schemas.object;
import static com.telemed.common.validation.Schemas.string;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.telemed.common.validation.Binding;
import com.telemed.common.validation.ObjectSchema;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** Prescribers for the back office (operations-api.md, "Prescribers"). */
@Path("/ops/v1/prescribers")
@Produces(MediaType.APPLICATION_JSON)
public class PrescriberResource {

    /** The email meets the unique index on lower(email): 254 characters (RFC 5321) fit any index entry. */
    static final ObjectSchema CREATE = object()
            .field("name", string().min(1).max(200))
            .field("email", string().email().max(254));

    private final PrescriberService prescribers;

    public PrescriberResource(PrescriberService prescribers) {
        this.prescribers = prescribers;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response create(JsonNode body) {
        // An empty body reads as {} (as Express's JSON parser gives it): every field is Required.
        JsonNode input = body != null ? body : JsonNodeFactory.instance.objectNode();
        CREATE.validate(input);
        Prescriber created = prescribers.create(Binding.bindValidated(input, NewPrescriber.class));
        return Response.status(Response.Status.CREATED).entity(PrescriberEnvelope.of(created)).build();
    }

    @GET
    @Path("/{id}")
    public PrescriberEnvelope get(@PathParam("id") String id) {
        return PrescriberEnvelope.of(prescribers.get(id));
    }
}
