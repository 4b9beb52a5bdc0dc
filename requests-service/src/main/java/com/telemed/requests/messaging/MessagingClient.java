package com.telemed.requests.messaging;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.common.json.Timestamps;
import com.telemed.common.remote.Answers;
import com.telemed.common.remote.RemoteCalls;
import com.telemed.common.remote.RemoteService;
import com.telemed.common.remote.ServiceUrls;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.UUID;

/**
 * The one way requests-service asks messaging-service something: whether a member sent a patient
 * message since an instant that no prescriber has read (fulfilment's hold); and, in sandbox, the
 * sandbox prescriber's message ({@link #prescriberMessage}). The platform's one
 * remote policy applies; an outage surfaces as its 503 {@code ApiException}.
 */
@ApplicationScoped
public class MessagingClient {

    private final MessagingApi api;
    private final RemoteService messaging;

    public MessagingClient(ServiceUrls urls, RemoteCalls calls) {
        this.api = calls.client(MessagingApi.class, urls.of("messaging-service"));
        this.messaging = calls.service("messaging-service");
    }

    /**
     * The sandbox prescriber's message to a member (simulation.Simulations): the member's conversation
     * with the prescriber found or created as the partner API does it, then the message posted as the
     * console's reply is ({@code message.new}). Two calls, no transaction open; each a change a person
     * must not make twice unknowingly, so neither is repeated ({@code callOnce}). Answers the message's id.
     */
    public String prescriberMessage(String partnerId, UUID memberId, UUID prescriberId, String text) {
        JsonNode conversation = messaging.callOnce("sandbox conversation", Answers.none(),
                () -> api.conversation(partnerId, new MessagingApi.Pair(memberId.toString(), prescriberId.toString())));
        String conversationId = conversation.path("conversation").path("id").asText();
        JsonNode message = messaging.callOnce("sandbox prescriber message", Answers.none(),
                () -> api.prescriberMessage(conversationId, new MessagingApi.Text(text)));
        return message.path("message").path("id").asText(null);
    }

    public boolean unreadFromPatientSince(String partnerId, UUID memberId, Instant since) {
        return messaging.call("unread from patient",
                () -> api.unreadFromPatient(partnerId, memberId.toString(), Timestamps.format(since))).unread();
    }
}
