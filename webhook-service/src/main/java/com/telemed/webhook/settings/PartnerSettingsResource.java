package com.telemed.webhook.settings;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.common.partner.PartnerContext;
import com.telemed.common.validation.Binding;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.ExampleObject;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * The partner's own webhook settings (partner-extensions.md, "Webhook settings, self-service"): the
 * operator's calls ({@link SettingsResource}) on the calling partner's account, with the same rules
 * and the same {@link SettingsService}. The gateway authenticates the API key and names the partner.
 */
@Path("/v1/webhook")
@Produces(MediaType.APPLICATION_JSON)
public class PartnerSettingsResource {

    private final SettingsService settings;
    private final PartnerContext partner;

    public PartnerSettingsResource(SettingsService settings, PartnerContext partner) {
        this.settings = settings;
        this.partner = partner;
    }

    /** {@code 200 {url, secretSet}}, never the secret. */
    @Tag(name = "Webhook settings")
    @Operation(operationId = "getOwnWebhook", summary = "The webhook URL and whether a secret exists (never the secret)")
    @APIResponse(responseCode = "200", description = "The URL (null: delivery off) and whether a secret exists", content = @Content(mediaType = "application/json", schema = @Schema(ref = "OwnWebhook")))
    @GET
    public SettingsViews.Current get() {
        return settings.current(partner.partnerId());
    }

    /** {@code {url: string|null}} -> {@code 200 {url, secret}} the first time a URL is saved, {@code 200 {url}} afterwards. */
    @Tag(name = "Webhook settings")
    @Operation(operationId = "putOwnWebhook", summary = "Set the webhook URL (null turns delivery off); the secret is shown once, when the first URL is saved")
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(ref = "PutOwnWebhookBody")))
    @APIResponse(responseCode = "200", description = "The URL, and the secret when this call generated it (the first URL saved; never shown again)", content = @Content(mediaType = "application/json", schema = @Schema(ref = "PutOwnWebhook200")))
    @APIResponse(responseCode = "400", description = "Validation failed, or the URL is not allowed", content = @Content(mediaType = "application/json", schema = @Schema(ref = "Error"), examples = {
                @ExampleObject(name = "https", ref = "putOwnWebhook.https"),
                @ExampleObject(name = "address", ref = "putOwnWebhook.address"),
                @ExampleObject(name = "unresolved", ref = "putOwnWebhook.unresolved"),
                @ExampleObject(name = "issues", ref = "putOwnWebhook.issues")}))
    @PUT
    @Consumes(MediaType.APPLICATION_JSON)
    public SettingsViews.Own put(JsonNode body) {
        String partnerId = partner.partnerId();
        String url = Binding.bind(SettingsSchemas.PUT, body, SettingsResource.SettingsInput.class).url();
        settings.checkAllowed(url);
        return settings.putOwn(partnerId, url);
    }

    /** {@code 200 {secret}}; {@code 409 No webhook URL configured} when no URL was ever saved (no secret yet). */
    @Tag(name = "Webhook settings")
    @Operation(operationId = "rotateOwnWebhookSecret", summary = "A new webhook secret; the old one stops signing at once")
    @APIResponse(responseCode = "200", description = "The new secret (shown once)", content = @Content(mediaType = "application/json", schema = @Schema(ref = "RotateOwnWebhookSecret200")))
    @APIResponse(responseCode = "409", description = "No URL was ever saved, so there is no secret to rotate", content = @Content(mediaType = "application/json", schema = @Schema(ref = "ErrorMessage"), examples = {
                @ExampleObject(name = "noUrl", ref = "rotateOwnWebhookSecret.noUrl")}))
    @POST
    @Path("/secret/rotate")
    public SettingsViews.Secret rotate() {
        return settings.rotateOwn(partner.partnerId());
    }
}
