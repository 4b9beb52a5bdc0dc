package com.telemed.catalogue.access;

import static com.telemed.common.validation.Schemas.array;
import static com.telemed.common.validation.Schemas.object;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.catalogue.drug.DrugIds;
import com.telemed.common.validation.ObjectSchema;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code PUT /ops/v1/partners/:id/drug-access} (operations-api.md, Partner settings). The gateway
 * owns partners; this service does not know them and stores the setting under whatever id it is given.
 */
@Path("/ops/v1/partners/{partnerId}/drug-access")
@Produces(MediaType.APPLICATION_JSON)
public class DrugAccessResource {

    /** {@code drugIds} must be present: a list, or {@code null} for the full catalogue. */
    static final ObjectSchema BODY = object().field("drugIds", array(DrugIds.schema()).nullable());

    /** {@code drugIds} is serialised as {@code null} for the full catalogue. */
    public record DrugAccessView(List<String> drugIds) {
    }

    private final DrugAccessService access;

    public DrugAccessResource(DrugAccessService access) {
        this.access = access;
    }

    @PUT
    @Consumes(MediaType.APPLICATION_JSON)
    public DrugAccessView put(@PathParam("partnerId") String partnerId, JsonNode body) {
        BODY.validate(body);
        JsonNode ids = body.get("drugIds");
        List<String> drugIds = null;
        if (!ids.isNull()) {
            drugIds = new ArrayList<>();
            for (JsonNode id : ids) {
                drugIds.add(id.textValue());
            }
        }
        return new DrugAccessView(access.set(partnerId, drugIds).orElse(null));
    }
}
