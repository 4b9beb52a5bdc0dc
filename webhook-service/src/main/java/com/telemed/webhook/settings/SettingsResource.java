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
    @POST
    @Path("/secret/rotate")
    public SettingsViews.Secret rotate(@PathParam("partnerId") String partnerId) {
        return settings.rotate(partnerId);
    }
}
