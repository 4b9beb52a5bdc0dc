package com.telemed.gateway.identity;

import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Pharmacy credentials (people-and-pages.md, "Credentials on /ops"): issue a key, revoke it. */
@Path("/ops/v1/pharmacies/{pharmacyId}/credentials")
@Produces(MediaType.APPLICATION_JSON)
public class PharmacyCredentialResource {

    private final PharmacyCredentials credentials;

    public PharmacyCredentialResource(PharmacyCredentials credentials) {
        this.credentials = credentials;
    }

    @Tag(name = "Pharmacy credentials")
    @Operation(operationId = "createPharmacyCredential", summary = "A new pharmacy key, shown once")
    @Parameter(name = "pharmacyId", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @APIResponse(responseCode = "201", description = "Created; the key is stored only as its SHA-256", content = @Content(mediaType = "application/json", schema = @Schema(ref = "PharmacyCredential")))
    @APIResponse(responseCode = "404", ref = "NotFound")
    @POST
    public Response issue(@PathParam("pharmacyId") String pharmacyId) {
        return Response.status(201).entity(credentials.issue(pharmacyId)).build();
    }

    @Tag(name = "Pharmacy credentials")
    @Operation(operationId = "revokePharmacyCredential", summary = "Revoke a pharmacy key; it is refused from the next call on")
    @Parameter(name = "pharmacyId", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @Parameter(name = "credentialId", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @APIResponse(responseCode = "204", description = "Revoked")
    @APIResponse(responseCode = "404", ref = "NotFound")
    @DELETE
    @Path("/{credentialId}")
    public Response revoke(@PathParam("pharmacyId") String pharmacyId, @PathParam("credentialId") String credentialId) {
        credentials.revoke(pharmacyId, credentialId);
        return Response.noContent().build();
    }
}
