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

    @GET
    @Path("/conversations")
    public ConversationViews.Listing list(@QueryParam("memberId") String memberId) {
        String member = ConversationSchemas.memberIdQuery(memberId);
        return new ConversationViews.Listing(conversations.ofMember(partner.partnerId(), member).stream()
                .map(ConversationViews.View::of).toList());
    }

    @GET
    @Path("/conversations/{id}")
    public ConversationViews.Envelope get(@PathParam("id") String id) {
        return new ConversationViews.Envelope(ConversationViews.View.of(conversations.owned(partner.partnerId(), id)));
    }

    /** The member read the thread: {@code unreadByMember} back to 0. */
    @POST
    @Path("/conversations/{id}/read")
    public ConversationViews.Success read(@PathParam("id") String id) {
        conversations.readByMember(partner.partnerId(), id);
        return ConversationViews.Success.TRUE;
    }

    @GET
    @Path("/unread-count")
    public ConversationViews.UnreadCount unreadCount(@QueryParam("memberId") String memberId) {
        String member = ConversationSchemas.memberIdQuery(memberId);
        return new ConversationViews.UnreadCount(conversations.unreadByMember(partner.partnerId(), member));
    }
}
