package com.telemed.messaging.message;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.common.access.Caller;
import com.telemed.common.validation.Binding;
import com.telemed.messaging.conversation.ConversationScope;
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
import org.jboss.resteasy.reactive.RestForm;
import org.jboss.resteasy.reactive.multipart.FileUpload;

/**
 * The prescriber's side of a conversation (operations-api.md, Prescriber messaging), any partner's:
 * the gateway authenticated the caller and platform-commons' {@code access.OpsAccessFilter} decided
 * who may call each operation; a prescriber in person reaches their own conversations only
 * ({@link ConversationScope}: another's is {@code 404 Conversation not found}). Validation failures
 * are issue arrays.
 */
@Path("/ops/v1/conversations/{id}")
@Produces(MediaType.APPLICATION_JSON)
public class PrescriberMessageResource {

    private final MessageService messages;
    private final Caller caller;

    public PrescriberMessageResource(MessageService messages, Caller caller) {
        this.messages = messages;
        this.caller = caller;
    }

    private ConversationScope scope() {
        return ConversationScope.of(caller.principal());
    }

    /** {@code { text }} or {@code { html, text, subject }}: {@code 201 {message}}, {@code message.new}. */
    @Tag(name = "Prescriber messaging")
    @Operation(operationId = "prescriberMessage", summary = "A prescriber's text or templated html message (message.new)")
    @Parameter(name = "id", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @RequestBody(description = "`{ text }` or `{ html, text, subject }`", required = true, content = @Content(mediaType = "application/json", schema = @Schema(ref = "PrescriberMessageBody")))
    @APIResponse(responseCode = "201", description = "Posted", content = @Content(mediaType = "application/json", schema = @Schema(ref = "MessageCreatedEnvelope")))
    @APIResponse(responseCode = "400", ref = "ValidationFailed")
    @APIResponse(responseCode = "404", ref = "ConversationNotFound")
    @POST
    @Path("/prescriber-messages")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response post(@PathParam("id") String id, JsonNode body) {
        MessageInput.PrescriberMessage input = Binding.bind(MessageSchemas.PRESCRIBER_MESSAGE, body, MessageInput.PrescriberMessage.class);
        Message message = messages.postFromPrescriber(scope(), id, input);
        return Response.status(201).entity(new MessageViews.CreatedEnvelope(messages.created(message))).build();
    }

    /** One multipart part named {@code file}, the patient's limits: {@code 201 {message}}, no webhook. */
    @Tag(name = "Prescriber messaging")
    @Operation(operationId = "prescriberAttachment", summary = "A prescriber's attachment (no webhook)")
    @Parameter(name = "id", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @RequestBody(required = true, content = @Content(mediaType = "multipart/form-data", schema = @Schema(ref = "PrescriberAttachmentBody")))
    @APIResponse(responseCode = "201", description = "Posted", content = @Content(mediaType = "application/json", schema = @Schema(ref = "MessageCreatedEnvelope")))
    @APIResponse(responseCode = "400", description = "No file, or a type not accepted", content = @Content(mediaType = "application/json", schema = @Schema(ref = "Error")))
    @APIResponse(responseCode = "404", ref = "ConversationNotFound")
    @APIResponse(responseCode = "413", description = "Larger than 10 MB", content = @Content(mediaType = "application/json", schema = @Schema(ref = "ErrorMessage"), examples = {
                @ExampleObject(name = "tooLarge", ref = "prescriberAttachment.tooLarge")}))
    @POST
    @Path("/prescriber-attachments")
    @Consumes(MediaType.MULTIPART_FORM_DATA)
    public Response attach(@PathParam("id") String id, @RestForm("file") FileUpload file) {
        ConversationScope scope = scope();
        messages.requireIn(scope, id);
        Message message = messages.attachFromPrescriber(scope, id, Uploads.checked(file));
        return Response.status(201).entity(new MessageViews.CreatedEnvelope(messages.created(message))).build();
    }

    /** {@code { category, note? }}: {@code 200 {message}}, the handed-off message with its {@code handoffCategory}. */
    @Tag(name = "Prescriber messaging")
    @Operation(operationId = "handoff", summary = "Hand a patient message to the partner's support team (message.handoff)")
    @Parameter(name = "id", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @Parameter(name = "messageId", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(ref = "HandoffBody")))
    @APIResponse(responseCode = "200", description = "The handed-off message", content = @Content(mediaType = "application/json", schema = @Schema(ref = "Handoff200")))
    @APIResponse(responseCode = "400", description = "Validation failed, or not a patient message", content = @Content(mediaType = "application/json", schema = @Schema(ref = "Error"), examples = {
                @ExampleObject(name = "notPatient", ref = "handoff.notPatient")}))
    @APIResponse(responseCode = "404", description = "Unknown conversation or message", content = @Content(mediaType = "application/json", schema = @Schema(ref = "ErrorMessage"), examples = {
                @ExampleObject(name = "conversation", ref = "handoff.conversation"),
                @ExampleObject(name = "message", ref = "handoff.message")}))
    @POST
    @Path("/messages/{messageId}/handoff")
    @Consumes(MediaType.APPLICATION_JSON)
    public Handed handOff(@PathParam("id") String id, @PathParam("messageId") String messageId, JsonNode body) {
        MessageInput.Handoff input = Binding.bind(MessageSchemas.HANDOFF, body, MessageInput.Handoff.class);
        return new Handed(messages.view(messages.handOff(scope(), id, messageId, input)));
    }

    @Tag(name = "Prescriber messaging")
    @Operation(operationId = "prescriberRead", summary = "unreadByPrescriber back to 0")
    @Parameter(name = "id", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @APIResponse(responseCode = "200", description = "Done", content = @Content(mediaType = "application/json", schema = @Schema(ref = "Success")))
    @APIResponse(responseCode = "404", ref = "ConversationNotFound")
    @POST
    @Path("/prescriber-read")
    public ConversationViews.Success read(@PathParam("id") String id) {
        messages.readByPrescriber(scope(), id);
        return ConversationViews.Success.TRUE;
    }

    /** The thread as the prescriber sees it: the conversation and its messages, paged as on the partner API. */
    @Tag(name = "Prescriber messaging")
    @Operation(operationId = "prescriberThread", summary = "The thread as the prescriber sees it")
    @Parameter(name = "id", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @Parameter(name = "limit", in = ParameterIn.QUERY, schema = @Schema(type = SchemaType.INTEGER, minimum = "1", maximum = "100", defaultValue = "50"))
    @Parameter(name = "cursor", in = ParameterIn.QUERY, schema = @Schema(type = SchemaType.STRING))
    @APIResponse(responseCode = "200", description = "The conversation and a page of its messages", content = @Content(mediaType = "application/json", schema = @Schema(ref = "PrescriberThread200")))
    @APIResponse(responseCode = "400", ref = "BadRequest")
    @APIResponse(responseCode = "404", ref = "ConversationNotFound")
    @GET
    @Path("/messages")
    public MessageViews.Thread thread(@PathParam("id") String id, @Context UriInfo uri,
                                      @QueryParam("cursor") String cursor) {
        // Read from the query itself: "limit=" is sent, and refused, not absent.
        int size = MessageSchemas.limit(uri.getQueryParameters().getFirst("limit"));
        MessageService.PrescriberThread thread = messages.thread(scope(), id, size, cursor);
        return new MessageViews.Thread(ConversationViews.View.of(thread.conversation()),
                thread.page().messages().stream().map(messages::view).toList(), thread.page().nextCursor());
    }

    /** {@code { message }} of a handoff. */
    public record Handed(MessageViews.Read message) {
    }
}
