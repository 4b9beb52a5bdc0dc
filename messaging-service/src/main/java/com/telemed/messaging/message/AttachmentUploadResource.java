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

    @POST
    @Path("/conversations/{id}/attachments")
    @Consumes(MediaType.MULTIPART_FORM_DATA)
    public Response upload(@PathParam("id") String id, @RestForm("file") FileUpload file) {
        messages.requireOwned(partner.partnerId(), id);
        Message message = messages.attachFromPatient(partner.partnerId(), id, Uploads.checked(file));
        return Response.status(201).entity(new MessageViews.CreatedEnvelope(messages.created(message))).build();
    }
}
