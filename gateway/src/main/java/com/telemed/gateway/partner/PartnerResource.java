package com.telemed.gateway.partner;

import static com.telemed.common.validation.Schemas.array;
import static com.telemed.common.validation.Schemas.object;
import static com.telemed.common.validation.Schemas.string;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.common.error.ApiException;
import com.telemed.common.id.Ids;
import com.telemed.common.validation.Binding;
import com.telemed.common.validation.ObjectSchema;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.regex.Pattern;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Operator API for partners and credentials (operations-api.md). The edge has checked the operator key. */
@Path("/ops/v1/partners")
@Produces(MediaType.APPLICATION_JSON)
public class PartnerResource {

    /** An origin as browsers send it: scheme, host and optional port, nothing more. */
    static final Pattern ORIGIN = Pattern.compile("^https?://[A-Za-z0-9.-]+(:\\d{1,5})?$");

    /** The longest real origin: {@code https://}, a 253-character host name, {@code :65535}. */
    static final int ORIGIN_MAX = 267;

    private static final ObjectSchema CREATE = object().field("name", string().min(1).max(200));
    /** Origins are indexed (partner_embed_origins_origin): bounded so every entry fits. */
    private static final ObjectSchema ORIGINS = object()
            .field("origins", array(string().max(ORIGIN_MAX).regex(ORIGIN, "Invalid origin")).max(100));

    public record PartnerView(UUID id, String name, Instant createdAt) {
        static PartnerView of(Partner partner) {
            return new PartnerView(partner.id, partner.name, partner.createdAt);
        }
    }

    public record CreatedView(PartnerView partner, String apiKey, String publishableKey) {
    }

    public record PartnerEnvelope(PartnerView partner) {
    }

    public record ApiKeyView(String apiKey) {
    }

    public record OriginsView(List<String> origins) {
    }

    /** {@code POST /ops/v1/partners}, bound after {@link #CREATE}. */
    public record PartnerInput(String name) {
    }

    /** {@code PUT .../embed-origins}, bound after {@link #ORIGINS}. */
    public record OriginsInput(List<String> origins) {
    }

    private final PartnerService partners;

    public PartnerResource(PartnerService partners) {
        this.partners = partners;
    }

    @Tag(name = "Partners")
    @Operation(operationId = "createPartner", summary = "Create a partner; its keys are shown once")
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(ref = "CreatePartnerBody")))
    @APIResponse(responseCode = "201", description = "Created, with its API key and publishable key (stored only as hashes)", content = @Content(mediaType = "application/json", schema = @Schema(ref = "CreatePartner201")))
    @APIResponse(responseCode = "400", ref = "ValidationFailed")
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response create(JsonNode body) {
        CREATE.validate(body);
        PartnerService.Created created = partners.create(Binding.bindValidated(body, PartnerInput.class).name());
        return Response.status(201).entity(new CreatedView(PartnerView.of(created.partner()),
                created.apiKey(), created.publishableKey())).build();
    }

    @Tag(name = "Partners")
    @Operation(operationId = "getPartner", summary = "A partner (never its keys)")
    @Parameter(name = "id", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @APIResponse(responseCode = "200", description = "The partner", content = @Content(mediaType = "application/json", schema = @Schema(ref = "GetPartner200")))
    @APIResponse(responseCode = "404", ref = "NotFound")
    @GET
    @Path("/{id}")
    public PartnerEnvelope get(@PathParam("id") String id) {
        return new PartnerEnvelope(PartnerView.of(partners.get(parse(id))));
    }

    @Tag(name = "Partners")
    @Operation(operationId = "rotateApiKey", summary = "A new API key; the previous one fails on the very next call")
    @Parameter(name = "id", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @APIResponse(responseCode = "200", description = "The new key", content = @Content(mediaType = "application/json", schema = @Schema(ref = "RotateApiKey200")))
    @APIResponse(responseCode = "404", ref = "NotFound")
    @POST
    @Path("/{id}/api-key/rotate")
    public ApiKeyView rotate(@PathParam("id") String id) {
        return new ApiKeyView(partners.rotateApiKey(parse(id)));
    }

    @Tag(name = "Partners")
    @Operation(operationId = "setEmbedOrigins", summary = "Replace the embed origin allow-list")
    @Parameter(name = "id", in = ParameterIn.PATH, required = true, schema = @Schema(type = SchemaType.STRING))
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(ref = "Origins")))
    @APIResponse(responseCode = "200", description = "The allow-list", content = @Content(mediaType = "application/json", schema = @Schema(ref = "Origins")))
    @APIResponse(responseCode = "400", ref = "ValidationFailed")
    @APIResponse(responseCode = "404", ref = "NotFound")
    @PUT
    @Path("/{id}/embed-origins")
    @Consumes(MediaType.APPLICATION_JSON)
    public OriginsView embedOrigins(@PathParam("id") String id, JsonNode body) {
        ORIGINS.validate(body);
        List<String> origins = Binding.bindValidated(body, OriginsInput.class).origins();
        return new OriginsView(partners.setEmbedOrigins(parse(id), origins));
    }

    private static UUID parse(String id) {
        return Ids.uuid(id).orElseThrow(() -> ApiException.notFound("Partner not found"));
    }
}
