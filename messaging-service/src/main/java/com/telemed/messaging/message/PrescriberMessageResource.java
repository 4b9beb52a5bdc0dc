package com.telemed.messaging.message;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.common.validation.Binding;
import com.telemed.messaging.conversation.Conversation;
import com.telemed.messaging.conversation.ConversationService;
import com.telemed.messaging.conversation.ConversationViews;
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
import org.jboss.resteasy.reactive.RestForm;
import org.jboss.resteasy.reactive.multipart.FileUpload;

/**
 * The prescriber's side of a conversation (operations-api.md, Prescriber messaging), any partner's:
 * the operator key opened it at the gateway. Validation failures are issue arrays.
 */
@Path("/ops/v1/conversations/{id}")
@Produces(MediaType.APPLICATION_JSON)
public class PrescriberMessageResource {

    private final MessageService messages;
    private final ConversationService conversations;

    public PrescriberMessageResource(MessageService messages, ConversationService conversations) {
        this.messages = messages;
        this.conversations = conversations;
    }

    /** {@code { text }} or {@code { html, text, subject }}: {@code 201 {message}}, {@code message.new}. */
    @POST
    @Path("/prescriber-messages")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response post(@PathParam("id") String id, JsonNode body) {
        MessageInput.PrescriberMessage input = Binding.bind(MessageSchemas.PRESCRIBER_MESSAGE, body, MessageInput.PrescriberMessage.class);
        Message message = messages.postFromPrescriber(id, input);
        return Response.status(201).entity(new MessageViews.CreatedEnvelope(messages.created(message))).build();
    }

    /** One multipart part named {@code file}, the patient's limits: {@code 201 {message}}, no webhook. */
    @POST
    @Path("/prescriber-attachments")
    @Consumes(MediaType.MULTIPART_FORM_DATA)
    public Response attach(@PathParam("id") String id, @RestForm("file") FileUpload file) {
        messages.requireAny(id);
        Message message = messages.attachFromPrescriber(id, Uploads.checked(file));
        return Response.status(201).entity(new MessageViews.CreatedEnvelope(messages.created(message))).build();
    }

    /** {@code { category, note? }}: {@code 200 {message}}, the handed-off message with its {@code handoffCategory}. */
    @POST
    @Path("/messages/{messageId}/handoff")
    @Consumes(MediaType.APPLICATION_JSON)
    public Handed handOff(@PathParam("id") String id, @PathParam("messageId") String messageId, JsonNode body) {
        MessageInput.Handoff input = Binding.bind(MessageSchemas.HANDOFF, body, MessageInput.Handoff.class);
        return new Handed(messages.view(messages.handOff(id, messageId, input)));
    }

    @POST
    @Path("/prescriber-read")
    public ConversationViews.Success read(@PathParam("id") String id) {
        messages.readByPrescriber(id);
        return ConversationViews.Success.TRUE;
    }

    /** The thread as the prescriber sees it: the conversation and its messages, paged as on the partner API. */
    @GET
    @Path("/messages")
    public MessageViews.Thread thread(@PathParam("id") String id, @Context UriInfo uri,
                                      @QueryParam("cursor") String cursor) {
        // Read from the query itself: "limit=" is sent, and refused, not absent.
        int size = MessageSchemas.limit(uri.getQueryParameters().getFirst("limit"));
        Conversation conversation = conversations.any(id);
        MessageService.Page page = messages.page(conversation, size, cursor);
        return new MessageViews.Thread(ConversationViews.View.of(conversation), page.messages().stream().map(messages::view).toList(),
                page.nextCursor());
    }

    /** {@code { message }} of a handoff. */
    public record Handed(MessageViews.Read message) {
    }
}
