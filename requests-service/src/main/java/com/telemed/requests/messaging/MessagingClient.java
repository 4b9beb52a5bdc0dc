package com.telemed.requests.messaging;

import com.telemed.common.json.Timestamps;
import com.telemed.common.remote.RemoteCalls;
import com.telemed.common.remote.RemoteService;
import com.telemed.requests.remote.NeighbourUrls;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.UUID;

/**
 * The one way requests-service asks messaging-service something: whether a member sent a patient
 * message since an instant that no prescriber has read (fulfilment's hold). The platform's one
 * remote policy applies; an outage surfaces as its 503 {@code ApiException}.
 */
@ApplicationScoped
public class MessagingClient {

    private final MessagingApi api;
    private final RemoteService messaging;

    public MessagingClient(NeighbourUrls urls, RemoteCalls calls) {
        this.api = calls.client(MessagingApi.class, urls.messagingUrl());
        this.messaging = calls.service("messaging-service");
    }

    public boolean unreadFromPatientSince(String partnerId, UUID memberId, Instant since) {
        return messaging.call("unread from patient",
                () -> api.unreadFromPatient(partnerId, memberId.toString(), Timestamps.format(since))).unread();
    }
}
