package com.telemed.requests.fulfilment;

import com.telemed.common.audit.AuditTrail;
import static com.telemed.common.validation.Schemas.enumOf;
import static com.telemed.common.validation.Schemas.object;
import static com.telemed.common.validation.Schemas.string;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.TextNode;
import com.telemed.common.json.Timestamps;
import com.telemed.common.validation.Binding;
import com.telemed.common.validation.Issues;
import com.telemed.common.validation.ObjectSchema;
import com.telemed.common.validation.StringSchema;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
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
 * {@code PUT}/{@code GET /ops/v1/partners/:id/fulfilment} (operations-api.md, "Partner settings"):
 * {@code {mode: "automatic" | "deferred"}}, answered with the stored mode. A partner never set is
 * {@code automatic}.
 */
@Path("/ops/v1/partners/{partnerId}/fulfilment")
@Produces(MediaType.APPLICATION_JSON)
public class FulfilmentSettingsResource {

    private final AuditTrail audit;

    public FulfilmentSettingsResource(AuditTrail audit) {
        this.audit = audit;
    }

    /** Partner ids are the gateway's UUIDs; the setting's key is the path's id. */
    static final StringSchema PARTNER_ID = string().min(1).max(64);
    static final ObjectSchema BODY = object().field("mode", enumOf(FulfilmentSettings.AUTOMATIC, FulfilmentSettings.DEFERRED));

    public record ModeInput(String mode) {
    }

    public record ModeView(String mode) {
    }

    @Tag(name = "Fulfilment settings")
    @Operation(operationId = "getFulfilment")
    @Parameter(name = "partnerId", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @APIResponse(responseCode = "200", description = "The mode", content = @Content(mediaType = "application/json", schema = @Schema(ref = "FulfilmentMode")))
    @GET
    @Transactional
    public ModeView get(@PathParam("partnerId") String partnerId) {
        validatePartner(partnerId, null);
        return new ModeView(FulfilmentSettings.modeOf(partnerId));
    }

    @Tag(name = "Fulfilment settings")
    @Operation(operationId = "putFulfilment", summary = "Automatic or deferred transmission of approvals")
    @Parameter(name = "partnerId", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(ref = "FulfilmentMode")))
    @APIResponse(responseCode = "200", description = "The mode", content = @Content(mediaType = "application/json", schema = @Schema(ref = "FulfilmentMode")))
    @APIResponse(responseCode = "400", ref = "ValidationFailed")
    @PUT
    @Consumes(MediaType.APPLICATION_JSON)
    @Transactional
    public ModeView put(@PathParam("partnerId") String partnerId, JsonNode body) {
        // No body is {} (as Binding.bind takes it): refused for its missing mode, never stored as null.
        JsonNode sent = body == null || body.isNull() ? JsonNodeFactory.instance.objectNode() : body;
        validatePartner(partnerId, sent);
        ModeInput input = Binding.bindValidated(sent, ModeInput.class);
        FulfilmentSettings.set(partnerId, input.mode(), Timestamps.now());
        audit.record("fulfilment_settings.update", "fulfilment_settings", partnerId, partnerId);
        return new ModeView(input.mode());
    }

    private static void validatePartner(String partnerId, JsonNode body) {
        Issues issues = new Issues();
        PARTNER_ID.validate(TextNode.valueOf(partnerId), List.of("partnerId"), issues);
        if (body != null) {
            BODY.validate(body, List.of(), issues);
        }
        issues.throwIfAny();
    }
}
