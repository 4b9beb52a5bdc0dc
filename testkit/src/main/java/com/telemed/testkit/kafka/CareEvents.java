package com.telemed.testkit.kafka;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.UUID;

/**
 * Item decisions on {@code care.events} as requests-service publishes them (envelope, subject with
 * the member and the deciding prescriber, the partner's {@code webhook} payload with the drug's
 * display name), for the consumers of several replicas to take: messaging-service posts a system
 * message per decision, webhook-service delivers the payload. Each call makes a new request, item
 * and envelope id; the record is keyed by the request, as the relay keys it.
 */
public final class CareEvents {

    /** One decision: its envelope id, its request (the record's key) and the record to publish. */
    public record Decision(String id, String requestId, TopicWriter.Keyed keyed) {
    }

    private CareEvents() {
    }

    /** {@code item.approved} of a new request of the member, decided by the prescriber at {@code at}. */
    public static Decision approved(String partnerId, String memberId, String prescriberId, String prescriptionName, Instant at) {
        return decision("item.approved", partnerId, memberId, prescriberId, prescriptionName, at);
    }

    /** {@code item.denied}, as {@link #approved}. */
    public static Decision denied(String partnerId, String memberId, String prescriberId, String prescriptionName, Instant at) {
        return decision("item.denied", partnerId, memberId, prescriberId, prescriptionName, at);
    }

    private static Decision decision(String type, String partnerId, String memberId, String prescriberId, String prescriptionName,
                                     Instant at) {
        String id = UUID.randomUUID().toString();
        String requestId = UUID.randomUUID().toString();
        String itemId = UUID.randomUUID().toString();
        JsonNodeFactory nodes = JsonNodeFactory.instance;
        ObjectNode subject = nodes.objectNode().put("requestId", requestId).put("itemId", itemId).put("memberId", memberId)
                .put("prescriberId", prescriberId);
        ObjectNode data = nodes.objectNode().put("requestId", requestId).put("itemId", itemId).put("memberId", memberId);
        ObjectNode webhook = nodes.objectNode().put("event", type).put("requestId", requestId).put("itemId", itemId)
                .put("memberId", memberId).put("prescriptionName", prescriptionName).put("timestamp", at.toString());
        ObjectNode envelope = nodes.objectNode().put("id", id).put("type", type).put("partnerId", partnerId)
                .put("occurredAt", at.toString());
        envelope.set("subject", subject);
        envelope.set("data", data);
        envelope.set("webhook", webhook);
        return new Decision(id, requestId, new TopicWriter.Keyed("care.events", requestId, envelope.toString()));
    }
}
