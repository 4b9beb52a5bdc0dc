package com.telemed.messaging.message;

import com.telemed.common.partner.PartnerContext;
import com.telemed.messaging.attachment.Upload;
import jakarta.ws.rs.Consumes;
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
import org.eclipse.microprofile.openapi.annotations.media.ExampleObject;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestForm;
import org.jboss.resteasy.reactive.multipart.FileUpload;

/**
 * {@code POST /v1/messages/conversations/:id/attachments}: the patient's file, one multipart part
 * named {@code file}. Quarkus REST writes the part to disk as it arrives; it is checked (403 and
 * 404 first, then presence, 10 MB, type) and streamed into the store. The prescriber is not mailed;
 * no webhook.
 */
@Path("/v1/messages")
@Produces(MediaType.APPLICATION_JSON)
public class AttachmentUploadResource {

    private final MessageService messages;
    private final PartnerContext partner;

    public AttachmentUploadResource(MessageService messages, PartnerContext partner) {
        this.messages = messages;
        this.partner = partner;
    }

    @Tag(name = "Messaging")
    @Operation(operationId = "uploadAttachment", summary = "Upload a file (multipart part `file`, at most 10 MB)")
    @Parameter(name = "id", in = ParameterIn.PATH, required = true, description = "Conversation UUID", schema = @Schema(type = SchemaType.STRING))
    @RequestBody(required = true, content = @Content(mediaType = "multipart/form-data", schema = @Schema(ref = "UploadAttachmentBody")))
    @APIResponse(responseCode = "201", description = "The attachment message", content = @Content(mediaType = "application/json", schema = @Schema(ref = "MessageCreatedEnvelope")))
    @APIResponse(responseCode = "400", description = "No file part, or a type not accepted", content = @Content(mediaType = "application/json", schema = @Schema(ref = "Error"), examples = {
                @ExampleObject(name = "noFile", ref = "uploadAttachment.noFile"),
                @ExampleObject(name = "type", ref = "uploadAttachment.type")}))
    @APIResponse(responseCode = "403", ref = "ConversationForbidden")
    @APIResponse(responseCode = "404", ref = "ConversationNotFound")
    @APIResponse(responseCode = "413", description = "Larger than 10 MB (10,485,760 bytes)", content = @Content(mediaType = "application/json", schema = @Schema(ref = "ErrorMessage"), examples = {
                @ExampleObject(name = "tooLarge", ref = "uploadAttachment.tooLarge")}))
    @POST
    @Path("/conversations/{id}/attachments")
    @Consumes(MediaType.MULTIPART_FORM_DATA)
    public Response upload(@PathParam("id") String id, @RestForm("file") FileUpload file) {
        messages.requireOwned(partner.partnerId(), id);
        Message message = messages.attachFromPatient(partner.partnerId(), id, Uploads.checked(file));
        return Response.status(201).entity(new MessageViews.CreatedEnvelope(messages.created(message))).build();
    }
}
