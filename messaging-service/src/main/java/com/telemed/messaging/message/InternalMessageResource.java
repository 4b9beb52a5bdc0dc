package com.telemed.messaging.message;

import static com.telemed.common.validation.Schemas.object;
import static com.telemed.common.validation.Schemas.string;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.telemed.common.validation.ObjectSchema;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import com.telemed.common.id.Ids;
import java.time.OffsetDateTime;

/**
 * What requests-service asks of messaging (never routed by the gateway; the caller names the
 * partner): whether a member has a patient message, sent after an instant, that no prescriber has
 * read. Fulfilment holds an item on it (partner-api.md, send-to-pharmacy). An unknown or malformed
 * member simply has none.
 */
@Path("/internal/messages")
@Produces(MediaType.APPLICATION_JSON)
public class InternalMessageResource {

    static final ObjectSchema UNREAD_QUERY = object()
            .field("partnerId", string().min(1).max(64))
            .field("memberId", string())
            .field("since", string().datetimeWithOffset());

    private final MessageService messages;

    public InternalMessageResource(MessageService messages) {
        this.messages = messages;
    }

    /** {@code 200 {unread: boolean}}; a missing or malformed parameter is a 400 issue array. */
    @GET
    @Path("/unread-from-patient")
    public MessageViews.UnreadFromPatient unreadFromPatient(@QueryParam("partnerId") String partnerId,
                                                            @QueryParam("memberId") String memberId,
                                                            @QueryParam("since") String since) {
        ObjectNode query = JsonNodeFactory.instance.objectNode();
        putIfPresent(query, "partnerId", partnerId);
        putIfPresent(query, "memberId", memberId);
        putIfPresent(query, "since", since);
        UNREAD_QUERY.validate(query);
        boolean unread = Ids.uuid(memberId)
                .map(member -> messages.unreadFromPatientSince(partnerId, member, OffsetDateTime.parse(since).toInstant()))
                .orElse(false);
        return new MessageViews.UnreadFromPatient(unread);
    }

    private static void putIfPresent(ObjectNode query, String name, String value) {
        if (value != null) {
            query.put(name, value);
        }
    }
}
