package com.telemed.requests.request;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.telemed.common.json.Timestamps;
import com.telemed.common.partner.PartnerContext;
import com.telemed.common.validation.Binding;
import com.telemed.common.validation.NumberSchema;
import com.telemed.requests.deployment.DeploymentConfig;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.math.BigDecimal;
import java.util.List;
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
 * {@code /v1/requests} (partner-api.md, Requests). Every call acts for the partner the gateway
 * authenticated; another partner's request is answered exactly like an unknown one.
 */
@Path("/v1/requests")
@Produces(MediaType.APPLICATION_JSON)
public class RequestResource {

    private static final int DEFAULT_LIMIT = 20;
    private static final BigDecimal MAX_PAGE = BigDecimal.valueOf(Long.MAX_VALUE / 200);

    private final RequestCreation creation;
    private final RequestQueries queries;
    private final Cancellations cancellations;
    private final PartnerContext partner;
    private final DeploymentConfig deployment;

    public RequestResource(RequestCreation creation, RequestQueries queries, Cancellations cancellations,
                           PartnerContext partner, DeploymentConfig deployment) {
        this.creation = creation;
        this.queries = queries;
        this.cancellations = cancellations;
        this.partner = partner;
        this.deployment = deployment;
    }

    @Tag(name = "Requests")
    @Operation(operationId = "createRequest", summary = "Create a prescription or consultation request", description = """
        Body shape by the fields present: a non-empty `items` array is a prescription request; no
        `items` and no `drugId` is a consultation request; a top-level `drugId` is the legacy
        single-drug format. With an `Idempotency-Key` (header, or `idempotencyKey` in the body; the
        header wins) already used by a successful create of the account, the existing request is
        answered `200` with `idempotentReplay: true`. In a sandbox deployment, `simulation`
        (`{ outcome: approve | deny | consultation, afterSeconds?: 0..3600, ship?: boolean }`) has the
        platform take the request through those steps by itself (see `simulateRequest`); outside
        sandbox it is refused (`400`, a `custom` issue at `["simulation"]`).
        """)
    @Parameter(name = "Idempotency-Key", in = ParameterIn.HEADER, schema = @Schema(type = SchemaType.STRING))
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(ref = "RequestCreate")))
    @APIResponse(responseCode = "201", description = "Queued", content = @Content(mediaType = "application/json", schema = @Schema(ref = "RequestCreated"), examples = {
                @ExampleObject(name = "prescription", ref = "createRequest.prescription"),
                @ExampleObject(name = "consultation", ref = "createRequest.consultation")}))
    @APIResponse(responseCode = "200", description = "Idempotent replay of an earlier create with the same key", content = @Content(mediaType = "application/json", schema = @Schema(ref = "RequestCreated"), examples = {
                @ExampleObject(name = "replay", ref = "createRequest.replay")}))
    @APIResponse(responseCode = "400", description = "Validation failed (array of issues), or a reference is not usable", content = @Content(mediaType = "application/json", schema = @Schema(ref = "Error"), examples = {
                @ExampleObject(name = "issues", ref = "Issues"),
                @ExampleObject(name = "memberNotFound", ref = "createRequest.memberNotFound"),
                @ExampleObject(name = "unknownDrug", ref = "createRequest.unknownDrug"),
                @ExampleObject(name = "dosage", ref = "createRequest.dosage"),
                @ExampleObject(name = "sku", ref = "createRequest.sku"),
                @ExampleObject(name = "surveyNotFound", ref = "createRequest.surveyNotFound"),
                @ExampleObject(name = "surveyOtherPartner", ref = "createRequest.surveyOtherPartner"),
                @ExampleObject(name = "surveyUsed", ref = "createRequest.surveyUsed"),
                @ExampleObject(name = "surveyOtherMember", ref = "createRequest.surveyOtherMember"),
                @ExampleObject(name = "simulationOutsideSandbox", ref = "createRequest.simulationOutsideSandbox"),
                @ExampleObject(name = "invalidJson", ref = "InvalidJson")}))
    @APIResponse(responseCode = "403", description = "The drug is outside the account's allowed list", content = @Content(mediaType = "application/json", schema = @Schema(ref = "ErrorMessage"), examples = {
                @ExampleObject(name = "drugAccess", ref = "createRequest.drugAccess")}))
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response create(JsonNode body, @HeaderParam("Idempotency-Key") String idempotencyKey) {
        String partnerId = partner.partnerId();
        RequestInput input = RequestSchemas.createInput(body, idempotencyKey, Timestamps::now, deployment.sandbox());
        RequestCreation.Outcome outcome = creation.create(partnerId, input, idempotencyKey);
        return Response.status(outcome.replay() ? 200 : 201)
                .entity(RequestViews.Created.of(outcome.request(), outcome.replay()))
                .build();
    }

    @Tag(name = "Requests")
    @Operation(operationId = "listRequests", summary = "List requests, newest first")
    @Parameter(name = "startDate", in = ParameterIn.QUERY, description = "Created at or after; `YYYY-MM-DD` or full ISO 8601.", schema = @Schema(type = SchemaType.STRING))
    @Parameter(name = "endDate", in = ParameterIn.QUERY, description = "Created up to the end of that calendar day (inclusive).", schema = @Schema(type = SchemaType.STRING))
    @Parameter(name = "status", in = ParameterIn.QUERY, description = "Matches when any line item has it.", schema = @Schema(type = SchemaType.STRING, enumeration = {"pending", "approved", "denied", "call_requested", "completed", "cancelled"}))
    @Parameter(name = "page", in = ParameterIn.QUERY, description = "1-based page (integer, sent as a string).", schema = @Schema(type = SchemaType.INTEGER, minimum = "1", defaultValue = "1"))
    @Parameter(name = "limit", in = ParameterIn.QUERY, schema = @Schema(type = SchemaType.INTEGER, minimum = "1", maximum = "100", defaultValue = "20"))
    @APIResponse(responseCode = "200", description = "One page", content = @Content(mediaType = "application/json", schema = @Schema(ref = "RequestPage")))
    @APIResponse(responseCode = "400", ref = "ValidationFailed")
    @GET
    public RequestViews.Page list(@Context UriInfo uri) {
        String partnerId = partner.partnerId();
        MultivaluedMap<String, String> params = uri.getQueryParameters();
        ObjectNode query = emptyObject();
        for (String name : List.of("startDate", "endDate", "status", "page", "limit")) {
            String value = params.getFirst(name);
            if (value != null) {
                query.put(name, value);
            }
        }
        RequestSchemas.LIST_QUERY.validate(query);
        return queries.list(partnerId, new RequestQueries.ListQuery(
                text(query, "startDate"), text(query, "endDate"), text(query, "status"),
                query.has("page") ? NumberSchema.read(query.get("page")).min(MAX_PAGE).longValueExact() : 1,
                query.has("limit") ? NumberSchema.read(query.get("limit")).intValueExact() : DEFAULT_LIMIT));
    }

    @Tag(name = "Requests")
    @Operation(operationId = "getRequest", summary = "One request with member, line items, prescriptions, fulfilment and history")
    @Parameter(name = "id", in = ParameterIn.PATH, required = true, description = "Request UUID", schema = @Schema(type = SchemaType.STRING))
    @APIResponse(responseCode = "200", description = "The request", content = @Content(mediaType = "application/json", schema = @Schema(ref = "RequestDetail")))
    @APIResponse(responseCode = "404", ref = "RequestNotFound")
    @GET
    @Path("/{id}")
    public RequestViews.Detail get(@PathParam("id") String id) {
        return queries.detail(partner.partnerId(), id);
    }

    /** 204 with no body; only while the stored status is pending. */
    @Tag(name = "Requests")
    @Operation(operationId = "deleteRequest", summary = "Hard-delete a request whose stored status is pending")
    @Parameter(name = "id", in = ParameterIn.PATH, required = true, description = "Request UUID", schema = @Schema(type = SchemaType.STRING))
    @APIResponse(responseCode = "204", description = "Deleted, no body")
    @APIResponse(responseCode = "400", description = "Stored status is not pending", content = @Content(mediaType = "application/json", schema = @Schema(ref = "Error"), examples = {
                @ExampleObject(name = "processed", ref = "deleteRequest.processed")}))
    @APIResponse(responseCode = "404", ref = "RequestNotFound")
    @DELETE
    @Path("/{id}")
    public Response delete(@PathParam("id") String id) {
        cancellations.delete(partner.partnerId(), id);
        return Response.noContent().build();
    }

    @Tag(name = "Requests")
    @Operation(operationId = "cancelRequest", summary = "Withdraw line items not yet at a pharmacy", description = "Idempotent. `item.canceled` fires per cancelled item, then `request.all_canceled` when no live items remain.")
    @Parameter(name = "id", in = ParameterIn.PATH, required = true, description = "Request UUID", schema = @Schema(type = SchemaType.STRING))
    @RequestBody(required = false, content = @Content(mediaType = "application/json", schema = @Schema(ref = "CancelInput")))
    @APIResponse(responseCode = "200", description = "What was cancelled and what was skipped", content = @Content(mediaType = "application/json", schema = @Schema(ref = "CancelOutcome")))
    @APIResponse(responseCode = "400", description = "No line items, or the body failed validation", content = @Content(mediaType = "application/json", schema = @Schema(ref = "Error"), examples = {
                @ExampleObject(name = "noItems", ref = "cancelRequest.noItems"),
                @ExampleObject(name = "issues", ref = "Issues")}))
    @APIResponse(responseCode = "404", ref = "RequestNotFound")
    @POST
    @Path("/{id}/cancel")
    @Consumes(MediaType.APPLICATION_JSON)
    public Cancellations.Outcome cancel(@PathParam("id") String id, JsonNode body) {
        String partnerId = partner.partnerId();
        CancelInput input = Binding.bind(RequestSchemas.CANCEL, body, CancelInput.class);
        String reason = input.reason() != null ? input.reason() : Cancellations.DEFAULT_REASON;
        return cancellations.cancel(partnerId, id, reason, input.itemIds(), HistoryEntry.partner(partnerId));
    }

    private static ObjectNode emptyObject() {
        return JsonNodeFactory.instance.objectNode();
    }

    private static String text(JsonNode node, String field) {
        return node.has(field) ? node.get(field).textValue() : null;
    }
}
