package com.telemed.requests.messaging;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.common.partner.PartnerContext;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/**
 * messaging-service's endpoints requests-service calls (messaging-service/README.md). Used only through
 * {@link MessagingClient}.
 */
@Produces(MediaType.APPLICATION_JSON)
public interface MessagingApi {

    @GET
    @Path("/internal/messages/unread-from-patient")
    UnreadFromPatient unreadFromPatient(@QueryParam("partnerId") String partnerId, @QueryParam("memberId") String memberId,
                                        @QueryParam("since") String since);

    record UnreadFromPatient(boolean unread) {
    }

    /**
     * The partner API's find-or-create of a member's conversation with a prescriber, for the partner named
     * as the gateway names it ({@code 201} or {@code 200 {conversation}}).
     */
    @POST
    @Path("/v1/messages/conversations")
    @Consumes(MediaType.APPLICATION_JSON)
    JsonNode conversation(@HeaderParam(PartnerContext.HEADER) String partnerId, Pair pair);

    record Pair(String memberId, String prescriberId) {
    }

    /** The console's reply: a prescriber's message in a conversation ({@code 201 {message}}, {@code message.new}). */
    @POST
    @Path("/ops/v1/conversations/{id}/prescriber-messages")
    @Consumes(MediaType.APPLICATION_JSON)
    JsonNode prescriberMessage(@PathParam("id") String conversationId, Text text);

    record Text(String text) {
    }
}
