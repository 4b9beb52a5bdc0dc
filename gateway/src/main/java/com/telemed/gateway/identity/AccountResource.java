package com.telemed.gateway.identity;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.common.validation.Binding;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
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
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Local accounts (people-and-pages.md, "Credentials on /ops"). The edge authenticated the caller
 * ({@code X-Principal}) and answers {@code 404} here when local accounts are off ({@link LocalAccounts}).
 */
@Path("/ops/v1/accounts")
@Produces(MediaType.APPLICATION_JSON)
public class AccountResource {

    private final AccountService accounts;

    public AccountResource(AccountService accounts) {
        this.accounts = accounts;
    }

    @Tag(name = "Accounts")
    @Operation(operationId = "createAccount", summary = "Create a local account (a prescriber account names its prescriber)")
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(ref = "CreateAccountBody")))
    @APIResponse(responseCode = "201", description = "Created; the password is stored only as an Argon2id hash", content = @Content(mediaType = "application/json", schema = @Schema(ref = "AccountEnvelope")))
    @APIResponse(responseCode = "400", ref = "AccountRefused")
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response create(JsonNode body) {
        IdentitySchemas.NewAccount input = Binding.bind(IdentitySchemas.NEW_ACCOUNT, body, IdentitySchemas.NewAccount.class);
        return Response.status(201).entity(new IdentityViews.AccountEnvelope(IdentityViews.AccountView.of(accounts.create(input))))
                .build();
    }

    @Tag(name = "Accounts")
    @Operation(operationId = "listAccounts", summary = "Every live account, oldest first")
    @APIResponse(responseCode = "200", description = "The accounts", content = @Content(mediaType = "application/json", schema = @Schema(ref = "AccountList")))
    @GET
    public IdentityViews.AccountsEnvelope list() {
        return new IdentityViews.AccountsEnvelope(accounts.list().stream().map(IdentityViews.AccountView::of).toList());
    }

    @Tag(name = "Accounts")
    @Operation(operationId = "deleteAccount", summary = "Delete an account; its sessions end on the next call")
    @Parameter(name = "accountId", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @APIResponse(responseCode = "204", description = "Deleted")
    @APIResponse(responseCode = "404", ref = "NotFound")
    @DELETE
    @Path("/{accountId}")
    public Response delete(@PathParam("accountId") String accountId) {
        accounts.delete(accountId);
        return Response.noContent().build();
    }
}
