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

    @POST
    @Path("/conversations/{id}/messages")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response post(@PathParam("id") String id, JsonNode body) {
        MessageInput.PatientText input = MessageSchemas.patientText(body);
        Message message = messages.postFromPatient(partner.partnerId(), id, input.text());
        return Response.status(201).entity(new MessageViews.CreatedEnvelope(messages.created(message))).build();
    }
}
