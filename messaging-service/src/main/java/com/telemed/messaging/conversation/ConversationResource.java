package com.telemed.messaging.conversation;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.common.partner.PartnerContext;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
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

/**
 * The partner's conversations ({@code /v1/messages}, partner-api.md Messaging). Another partner's
 * member or conversation is {@code 403}, an unknown one {@code 404} (Authentication rule 9).
 */
@Path("/v1/messages")
@Produces(MediaType.APPLICATION_JSON)
public class ConversationResource {

    private final ConversationService conversations;
    private final PartnerContext partner;

    public ConversationResource(ConversationService conversations, PartnerContext partner) {
        this.conversations = conversations;
        this.partner = partner;
    }

    /** {@code 201 {conversation, created: true}} when created, {@code 200 {conversation, created: false}} when it existed. */
    @Tag(name = "Messaging")
    @Operation(operationId = "conversationForMember", summary = "Find or create the conversation with the member's current prescriber")
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(ref = "ConversationForMemberBody")))
    @APIResponse(responseCode = "201", description = "Created", content = @Content(mediaType = "application/json", schema = @Schema(ref = "ConversationFoundOrCreated")))
    @APIResponse(responseCode = "200", description = "Existing", content = @Content(mediaType = "application/json", schema = @Schema(ref = "ConversationFoundOrCreated")))
    @APIResponse(responseCode = "400", description = "`memberId` missing or empty", content = @Content(mediaType = "application/json", schema = @Schema(ref = "Error"), examples = {
                @ExampleObject(name = "required", ref = "conversationForMember.required"),
                @ExampleObject(name = "empty", ref = "conversationForMember.empty")}))
    @APIResponse(responseCode = "403", ref = "MemberForbidden")
    @APIResponse(responseCode = "404", ref = "MemberNotFound")
    @APIResponse(responseCode = "409", description = "No request of the member ever had a prescriber", content = @Content(mediaType = "application/json", schema = @Schema(ref = "ErrorMessage"), examples = {
                @ExampleObject(name = "noPrescriber", ref = "conversationForMember.noPrescriber")}))
    @POST
    @Path("/conversations/for-member")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response forMember(JsonNode body) {
        ConversationSchemas.ForMemberInput input = ConversationSchemas.bind(ConversationSchemas.FOR_MEMBER, body,
                ConversationSchemas.ForMemberInput.class);
        ConversationService.FoundOrCreated found = conversations.forMember(partner.partnerId(), input.memberId());
        return Response.status(found.created() ? 201 : 200)
                .entity(new ConversationViews.FoundOrCreated(ConversationViews.View.of(found.conversation()), found.created()))
                .build();
    }

    /** {@code 201 {conversation}} when created, {@code 200 {conversation}} when it existed. */
    @Tag(name = "Messaging")
    @Operation(operationId = "createConversation", summary = "Find or create the conversation of a member and a prescriber")
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(ref = "CreateConversationBody")))
    @APIResponse(responseCode = "201", description = "Created", content = @Content(mediaType = "application/json", schema = @Schema(ref = "ConversationEnvelope")))
    @APIResponse(responseCode = "200", description = "Existing", content = @Content(mediaType = "application/json", schema = @Schema(ref = "ConversationEnvelope")))
    @APIResponse(responseCode = "400", description = "Missing or empty field (the message names the first failing field)", content = @Content(mediaType = "application/json", schema = @Schema(ref = "Error"), examples = {
                @ExampleObject(name = "required", ref = "createConversation.required"),
                @ExampleObject(name = "empty", ref = "createConversation.empty")}))
    @APIResponse(responseCode = "403", ref = "MemberForbidden")
    @APIResponse(responseCode = "404", ref = "MemberNotFound")
    @APIResponse(responseCode = "500", description = "Unknown `prescriberId`, or an unexpected failure", content = @Content(mediaType = "application/json", schema = @Schema(ref = "ErrorMessage"), examples = {
                @ExampleObject(name = "prescriber", ref = "createConversation.prescriber"),
                @ExampleObject(name = "internal", ref = "createConversation.internal")}))
    @POST
    @Path("/conversations")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response create(JsonNode body) {
        ConversationSchemas.PairInput input = ConversationSchemas.bind(ConversationSchemas.PAIR, body, ConversationSchemas.PairInput.class);
        ConversationService.FoundOrCreated found = conversations.forPair(partner.partnerId(), input.memberId(), input.prescriberId());
        return Response.status(found.created() ? 201 : 200)
                .entity(new ConversationViews.Envelope(ConversationViews.View.of(found.conversation())))
                .build();
    }

    @Tag(name = "Messaging")
    @Operation(operationId = "listConversations", summary = "The member's conversations, most recently active first (not paginated)")
    @Parameter(name = "memberId", in = ParameterIn.QUERY, required = true, schema = @Schema(type = SchemaType.STRING))
    @APIResponse(responseCode = "200", description = "The conversations", content = @Content(mediaType = "application/json", schema = @Schema(ref = "ConversationList")))
    @APIResponse(responseCode = "400", ref = "MemberIdQueryRequired")
    @APIResponse(responseCode = "403", ref = "MemberForbidden")
    @GET
    @Path("/conversations")
    public ConversationViews.Listing list(@QueryParam("memberId") String memberId) {
        String member = ConversationSchemas.memberIdQuery(memberId);
        return new ConversationViews.Listing(conversations.ofMember(partner.partnerId(), member).stream()
                .map(ConversationViews.View::of).toList());
    }

    @Tag(name = "Messaging")
    @Operation(operationId = "getConversation")
    @Parameter(name = "id", in = ParameterIn.PATH, required = true, description = "Conversation UUID", schema = @Schema(type = SchemaType.STRING))
    @APIResponse(responseCode = "200", description = "The conversation", content = @Content(mediaType = "application/json", schema = @Schema(ref = "ConversationEnvelope")))
    @APIResponse(responseCode = "403", ref = "ConversationForbidden")
    @APIResponse(responseCode = "404", ref = "ConversationNotFound")
    @GET
    @Path("/conversations/{id}")
    public ConversationViews.Envelope get(@PathParam("id") String id) {
        return new ConversationViews.Envelope(ConversationViews.View.of(conversations.owned(partner.partnerId(), id)));
    }

    /** The member read the thread: {@code unreadByMember} back to 0. */
    @Tag(name = "Messaging")
    @Operation(operationId = "markConversationRead", summary = "Set unreadByMember to 0")
    @Parameter(name = "id", in = ParameterIn.PATH, required = true, description = "Conversation UUID", schema = @Schema(type = SchemaType.STRING))
    @APIResponse(responseCode = "200", description = "Done", content = @Content(mediaType = "application/json", schema = @Schema(ref = "Success")))
    @APIResponse(responseCode = "403", ref = "ConversationForbidden")
    @APIResponse(responseCode = "404", ref = "ConversationNotFound")
    @POST
    @Path("/conversations/{id}/read")
    public ConversationViews.Success read(@PathParam("id") String id) {
        conversations.readByMember(partner.partnerId(), id);
        return ConversationViews.Success.TRUE;
    }

    @Tag(name = "Messaging")
    @Operation(operationId = "unreadCount", summary = "Unread messages across the member's conversations")
    @Parameter(name = "memberId", in = ParameterIn.QUERY, required = true, schema = @Schema(type = SchemaType.STRING))
    @APIResponse(responseCode = "200", description = "The count", content = @Content(mediaType = "application/json", schema = @Schema(ref = "UnreadCount200")))
    @APIResponse(responseCode = "400", ref = "MemberIdQueryRequired")
    @APIResponse(responseCode = "403", ref = "MemberForbidden")
    @GET
    @Path("/unread-count")
    public ConversationViews.UnreadCount unreadCount(@QueryParam("memberId") String memberId) {
        String member = ConversationSchemas.memberIdQuery(memberId);
        return new ConversationViews.UnreadCount(conversations.unreadByMember(partner.partnerId(), member));
    }
}
