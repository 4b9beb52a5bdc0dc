package com.telemed.webhook.settings;

import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.sql.SQLException;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Operator endpoint of a key rotation (README, Secrets): {@code POST /ops/v1/webhook-secrets/re-encrypt}
 * -> {@code 200 {"reEncrypted": n, "unreadable": m}}. The gateway authenticates the operator key
 * and routes {@code /ops/v1/webhook-secrets/**} here. Not in operations-api.md: an operator's
 * maintenance call, named here and in the README.
 */
@Path("/ops/v1/webhook-secrets")
@Produces(MediaType.APPLICATION_JSON)
public class SecretKeysResource {

    private final SecretReEncryption reEncryption;

    public SecretKeysResource(SecretReEncryption reEncryption) {
        this.reEncryption = reEncryption;
    }

    @Tag(name = "Webhook settings")
    @Operation(operationId = "reEncryptWebhookSecrets", summary = "Re-encrypt every webhook secret under the current key")
    @APIResponse(responseCode = "200", description = "Counts", content = @Content(mediaType = "application/json", schema = @Schema(ref = "ReEncryptWebhookSecrets200")))
    @POST
    @Path("/re-encrypt")
    public SecretReEncryption.Result reEncrypt() throws SQLException {
        return reEncryption.run();
    }
}
