package com.telemed.webhook.settings;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.telemed.common.validation.Binding;
import com.telemed.common.validation.Issues;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
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
import org.eclipse.microprofile.openapi.annotations.media.ExampleObject;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Webhook settings (operations-api.md, Partner settings). The gateway authenticates the operator
 * and routes here; the partner is the path's id.
 */
@Path("/ops/v1/partners/{partnerId}/webhook")
@Produces(MediaType.APPLICATION_JSON)
public class SettingsResource {

    private final SettingsService settings;

    public SettingsResource(SettingsService settings) {
        this.settings = settings;
    }

    /** The body, bound after {@code SettingsSchemas.PUT}: a {@code null} url turns webhooks off. */
    public record SettingsInput(String url) {
    }

    /** {@code {url: string|null}} -> {@code 200 {url, secret}}. */
    @Tag(name = "Webhook settings")
    @Operation(operationId = "putWebhook", summary = "Set the webhook URL (null turns delivery off); the secret is generated once")
    @Parameter(name = "partnerId", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(ref = "PutWebhookBody")))
    @APIResponse(responseCode = "200", description = "The URL and the secret", content = @Content(mediaType = "application/json", schema = @Schema(ref = "PutWebhook200")))
    @APIResponse(responseCode = "400", description = "Validation failed, or the URL is not allowed", content = @Content(mediaType = "application/json", schema = @Schema(ref = "Error"), examples = {
                @ExampleObject(name = "invalid", ref = "putWebhook.invalid"),
                @ExampleObject(name = "issues", ref = "Issues")}))
    @PUT
    @Consumes(MediaType.APPLICATION_JSON)
    public SettingsViews.Settings put(@PathParam("partnerId") String partnerId, JsonNode body) {
        Issues issues = new Issues();
        SettingsSchemas.PARTNER_ID.validate(TextNode.valueOf(partnerId), List.of("partnerId"), issues);
        SettingsSchemas.PUT.validate(body, List.of(), issues);
        issues.throwIfAny();
        String url = Binding.bindValidated(body, SettingsInput.class).url();
        settings.checkAllowed(url);
        return settings.put(partnerId, url);
    }

    /** {@code 200 {secret}}; {@code 404 Webhook not found} when no URL was ever saved. */
    @Tag(name = "Webhook settings")
    @Operation(operationId = "rotateWebhookSecret", summary = "A new webhook secret (the support-arranged rotation)")
    @Parameter(name = "partnerId", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @APIResponse(responseCode = "200", description = "The new secret", content = @Content(mediaType = "application/json", schema = @Schema(ref = "RotateWebhookSecret200")))
    @APIResponse(responseCode = "404", description = "No URL was ever saved", content = @Content(mediaType = "application/json", schema = @Schema(ref = "ErrorMessage"), examples = {
                @ExampleObject(name = "notFound", ref = "rotateWebhookSecret.notFound")}))
    @POST
    @Path("/secret/rotate")
    public SettingsViews.Secret rotate(@PathParam("partnerId") String partnerId) {
        return settings.rotate(partnerId);
    }
}
