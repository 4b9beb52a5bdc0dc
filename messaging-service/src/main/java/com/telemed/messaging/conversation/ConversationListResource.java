package com.telemed.messaging.conversation;

import com.telemed.common.access.Caller;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.UriInfo;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * The console's list of threads (people-and-pages.md, "The console": "threads with unread patient
 * messages first"; issue #41), any partner's: the gateway authenticated the caller and platform-commons'
 * {@code access.OpsAccessFilter} decided who may call it (the operator key only outside production, as
 * a read of a conversation's messages: the list carries members' names); a prescriber in person lists
 * their own conversations only ({@link ConversationScope}). Validation failures are issue arrays.
 */
@Path("/ops/v1/conversations")
@Produces(MediaType.APPLICATION_JSON)
public class ConversationListResource {

    private final ConversationService conversations;
    private final Caller caller;

    public ConversationListResource(ConversationService conversations, Caller caller) {
        this.conversations = conversations;
        this.caller = caller;
    }

    @Tag(name = "Prescriber messaging")
    @Operation(operationId = "listThreads", summary = "The console's threads: unread patient messages first, then the latest message first")
    @Parameter(name = "limit", in = ParameterIn.QUERY, schema = @Schema(type = SchemaType.INTEGER, minimum = "1", maximum = "100", defaultValue = "50"))
    @Parameter(name = "after", in = ParameterIn.QUERY, description = "The `nextCursor` of the previous page", schema = @Schema(type = SchemaType.STRING))
    @Parameter(name = "unread", in = ParameterIn.QUERY, description = "`true`: only threads with patient messages no prescriber has read",
            schema = @Schema(type = SchemaType.STRING, enumeration = {"true", "false"}))
    @APIResponse(responseCode = "200", description = "A page of threads", content = @Content(mediaType = "application/json", schema = @Schema(ref = "ConversationThreads200")))
    @APIResponse(responseCode = "400", ref = "ValidationFailed")
    @APIResponse(responseCode = "401", ref = "OpsUnauthorized")
    @APIResponse(responseCode = "403", ref = "OpsForbidden")
    @GET
    public ConversationViews.Page list(@Context UriInfo uri) {
        // Read from the query itself: "limit=" or "after=" is sent, and refused, not absent.
        MultivaluedMap<String, String> sent = uri.getQueryParameters();
        ConversationSchemas.ListQuery query = ConversationSchemas.listQuery(sent.getFirst("limit"), sent.getFirst("after"),
                sent.getFirst("unread"));
        ConversationService.ConsolePage page = conversations.console(ConversationScope.of(caller.principal()), query);
        return new ConversationViews.Page(page.conversations().stream().map(ConversationViews.View::of).toList(), page.nextCursor());
    }
}
