package com.telemed.messaging.message;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.common.partner.PartnerContext;
import com.telemed.messaging.conversation.Conversation;
import com.telemed.messaging.conversation.ConversationService;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
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
 * A conversation's messages on the partner API: the thread, oldest first, and the patient's
 * text. (Every partner messaging resource shares the root {@code /v1/messages}: Quarkus REST picks
 * a root resource by its path before the method, and never tries another.) Every message posted here is the patient's ({@code senderRole: patient}, the member's
 * name), is mailed to the prescriber, and sends no webhook.
 */
@Path("/v1/messages")
@Produces(MediaType.APPLICATION_JSON)
public class MessageResource {

    private final MessageService messages;
    private final ConversationService conversations;
    private final PartnerContext partner;

    public MessageResource(MessageService messages, ConversationService conversations, PartnerContext partner) {
        this.messages = messages;
        this.conversations = conversations;
        this.partner = partner;
    }

    /**
     * {@code limit} 1 to 100 (default 50); {@code cursor}: the {@code nextCursor} of the page before,
     * whose messages come after it. {@code nextCursor} is null on the last page.
     */
    @Tag(name = "Messaging")
    @Operation(operationId = "listMessages", summary = "Messages, oldest first")
    @Parameter(name = "id", in = ParameterIn.PATH, required = true, description = "Conversation UUID", schema = @Schema(type = SchemaType.STRING))
    @Parameter(name = "limit", in = ParameterIn.QUERY, schema = @Schema(type = SchemaType.INTEGER, minimum = "1", maximum = "100", defaultValue = "50"))
    @Parameter(name = "cursor", in = ParameterIn.QUERY, description = "Accepted for forward compatibility (the `nextCursor` of the previous page).", schema = @Schema(type = SchemaType.STRING))
    @APIResponse(responseCode = "200", description = "One page", content = @Content(mediaType = "application/json", schema = @Schema(ref = "MessagePage")))
    @APIResponse(responseCode = "400", description = "`limit` outside 1 to 100, or an invalid cursor", content = @Content(mediaType = "application/json", schema = @Schema(ref = "Error"), examples = {
                @ExampleObject(name = "limit", ref = "listMessages.limit"),
                @ExampleObject(name = "cursor", ref = "listMessages.cursor")}))
    @APIResponse(responseCode = "403", ref = "ConversationForbidden")
    @APIResponse(responseCode = "404", ref = "ConversationNotFound")
    @GET
    @Path("/conversations/{id}/messages")
    public MessageViews.Page list(@PathParam("id") String id, @Context UriInfo uri,
                                  @QueryParam("cursor") String cursor) {
        // Read from the query itself: "limit=" is sent, and refused, not absent.
        int size = MessageSchemas.limit(uri.getQueryParameters().getFirst("limit"));
        Conversation conversation = conversations.owned(partner.partnerId(), id);
        MessageService.Page page = messages.page(conversation, size, cursor);
        return new MessageViews.Page(page.messages().stream().map(messages::view).toList(), page.nextCursor());
    }

    @Tag(name = "Messaging")
    @Operation(operationId = "postMessage", summary = "Post a patient message (plain text, 1 to 5000 characters)")
    @Parameter(name = "id", in = ParameterIn.PATH, required = true, description = "Conversation UUID", schema = @Schema(type = SchemaType.STRING))
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(ref = "PostMessageBody")))
    @APIResponse(responseCode = "201", description = "Posted", content = @Content(mediaType = "application/json", schema = @Schema(ref = "MessageCreatedEnvelope")))
    @APIResponse(responseCode = "400", description = "Empty or too long", content = @Content(mediaType = "application/json", schema = @Schema(ref = "Error"), examples = {
                @ExampleObject(name = "required", ref = "postMessage.required"),
                @ExampleObject(name = "tooLong", ref = "postMessage.tooLong")}))
    @APIResponse(responseCode = "403", ref = "ConversationForbidden")
    @APIResponse(responseCode = "404", ref = "ConversationNotFound")
    @POST
    @Path("/conversations/{id}/messages")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response post(@PathParam("id") String id, JsonNode body) {
        MessageInput.PatientText input = MessageSchemas.patientText(body);
        Message message = messages.postFromPatient(partner.partnerId(), id, input.text());
        return Response.status(201).entity(new MessageViews.CreatedEnvelope(messages.created(message))).build();
    }
}
