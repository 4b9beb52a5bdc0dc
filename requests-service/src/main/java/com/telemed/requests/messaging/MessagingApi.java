package com.telemed.requests.messaging;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/** messaging-service's internal endpoint (messaging-service/README.md). Used only through {@link MessagingClient}. */
@Path("/internal/messages")
@Produces(MediaType.APPLICATION_JSON)
public interface MessagingApi {

    @GET
    @Path("/unread-from-patient")
    UnreadFromPatient unreadFromPatient(@QueryParam("partnerId") String partnerId, @QueryParam("memberId") String memberId,
                                        @QueryParam("since") String since);

    record UnreadFromPatient(boolean unread) {
    }
}
