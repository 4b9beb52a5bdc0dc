package com.telemed.messaging.attachment;

import com.telemed.common.error.ApiException;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HEAD;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.StreamingOutput;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirements;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * {@code GET /attachments/:token/:fileName}: the download link of an attachment, reached through
 * the gateway without a key (partner-api.md: "anyone holding the link can download the file").
 * The token alone names the file; the name segment is for the person saving it. The bytes stream
 * from the store as they are sent, with the stored type, the exact length and the original name.
 */
@Path("/attachments/{token}/{fileName}")
public class AttachmentResource {

    static final String NOT_FOUND = "Attachment not found";

    private final Attachments attachments;

    public AttachmentResource(Attachments attachments) {
        this.attachments = attachments;
    }

    @Tag(name = "Attachments")
    @Operation(operationId = "downloadAttachment", summary = "Download an attachment (the link is the credential; GET and HEAD only)")
    @SecurityRequirements
    @Parameter(name = "token", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @Parameter(name = "fileName", in = ParameterIn.PATH, required = true, description = "The original file name", schema = @Schema(type = SchemaType.STRING))
    @APIResponse(responseCode = "200", ref = "downloadAttachment.200")
    @APIResponse(responseCode = "404", ref = "AttachmentNotFound")
    @APIResponse(responseCode = "405", ref = "MethodNotAllowed")
    @GET
    public Response download(@PathParam("token") String token) {
        Attachment attachment = find(token);
        StreamingOutput body = out -> attachments.copyTo(attachment, out);
        return headers(Response.ok(body), attachment).build();
    }

    @Tag(name = "Attachments")
    @Operation(operationId = "headAttachment", summary = "The attachment's headers, without its body")
    @SecurityRequirements
    @Parameter(name = "token", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @Parameter(name = "fileName", in = ParameterIn.PATH, required = true, description = "The original file name", schema = @Schema(type = SchemaType.STRING))
    @APIResponse(responseCode = "200", description = "The headers a download would have")
    @APIResponse(responseCode = "404", description = "Unknown link (no body on HEAD)")
    @HEAD
    public Response head(@PathParam("token") String token) {
        return headers(Response.ok(), find(token)).build();
    }

    private Attachment find(String token) {
        return attachments.byToken(token).orElseThrow(() -> ApiException.notFound(NOT_FOUND));
    }

    private static Response.ResponseBuilder headers(Response.ResponseBuilder response, Attachment attachment) {
        return response.type(attachment.contentType)
                .header("Content-Length", attachment.sizeBytes)
                .header("Content-Disposition", contentDisposition(attachment.fileName))
                .header("X-Content-Type-Options", "nosniff")
                .header("Cache-Control", "no-store");
    }

    /**
     * RFC 6266: an ASCII fallback name, and the exact name as UTF-8 in {@code filename*}; of a name
     * stored before names were {@link Upload#fitted fitted}, its first 255 bytes.
     */
    static String contentDisposition(String stored) {
        String fileName = Upload.fitted(stored);
        StringBuilder ascii = new StringBuilder(fileName.length());
        fileName.codePoints().forEach(c -> ascii.append(c >= 0x20 && c < 0x7f && c != '"' && c != '\\' ? (char) c : '_'));
        return "attachment; filename=\"" + ascii + "\"; filename*=UTF-8''"
                + URLEncoder.encode(fileName, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
