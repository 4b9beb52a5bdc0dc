package com.telemed.testkit.kafka;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.UUID;

/**
 * Envelopes as the owners publish them for billing-service's ledger (requests-service's {@code care.events} approvals,
 * members-service's {@code member.events}), with the internal data billing reads. Each call makes
 * a new envelope id; {@link Envelope#json()} is the record value on the topic.
 */
public final class BillingEvents {

    public record Envelope(String id, String topic, String key, String json) {

        /** The record the owner's relay would send: this envelope under its key. */
        public TopicWriter.Keyed keyed() {
            return new TopicWriter.Keyed(topic, key, json);
        }
    }

    private BillingEvents() {
    }

    public static Envelope created(String partnerId, String memberId, String firstName, String lastName, String email, Instant at) {
        ObjectNode data = member(memberId).put("status", "active").put("firstName", firstName).put("lastName", lastName)
                .put("email", email);
        return memberEvent("member.created", partnerId, memberId, at, data);
    }

    public static Envelope updated(String partnerId, String memberId, String firstName, String lastName, String email, Instant at) {
        ObjectNode data = member(memberId);
        data.putArray("changedFields").add("firstName");
        data.put("firstName", firstName).put("lastName", lastName).put("email", email);
        return memberEvent("member.updated", partnerId, memberId, at, data);
    }

    public static Envelope statusChanged(String partnerId, String memberId, String previous, String next, Instant at) {
        return statusChanged(partnerId, memberId, UUID.randomUUID().toString(), previous, next, at);
    }

    public static Envelope statusChanged(String partnerId, String memberId, String changeId, String previous, String next, Instant at) {
        ObjectNode data = member(memberId).put("previousStatus", previous).put("newStatus", next).put("statusChangeId", changeId);
        return memberEvent("member.status_changed", partnerId, memberId, at, data);
    }

    public static Envelope deleted(String partnerId, String memberId, Instant at) {
        return memberEvent("member.deleted", partnerId, memberId, at, member(memberId));
    }

    /** {@code item.approved} as requests-service writes it, keyed by the request. */
    public static Envelope approved(String partnerId, String memberId, Instant at) {
        return approval("item.approved", partnerId, memberId, at);
    }

    /** {@code request.approved}: a legacy single-drug request approved at request level. */
    public static Envelope legacyApproved(String partnerId, String memberId, Instant at) {
        return approval("request.approved", partnerId, memberId, at);
    }

    /** A care event billing has no use for. */
    public static Envelope denied(String partnerId, String memberId, Instant at) {
        return approval("item.denied", partnerId, memberId, at);
    }

    private static Envelope approval(String type, String partnerId, String memberId, Instant at) {
        String requestId = UUID.randomUUID().toString();
        String itemId = UUID.randomUUID().toString();
        ObjectNode subject = JsonNodeFactory.instance.objectNode().put("requestId", requestId).put("itemId", itemId)
                .put("memberId", memberId).put("prescriberId", UUID.randomUUID().toString());
        ObjectNode data = JsonNodeFactory.instance.objectNode().put("requestId", requestId).put("memberId", memberId);
        ObjectNode webhook = JsonNodeFactory.instance.objectNode().put("event", type).put("requestId", requestId)
                .put("patientName", "Webhook Only");
        return envelope("care.events", requestId, type, partnerId, at, subject, data, webhook);
    }

    private static Envelope memberEvent(String type, String partnerId, String memberId, Instant at, ObjectNode data) {
        ObjectNode subject = JsonNodeFactory.instance.objectNode().put("memberId", memberId);
        return envelope("member.events", memberId, type, partnerId, at, subject, data, null);
    }

    private static ObjectNode member(String memberId) {
        return JsonNodeFactory.instance.objectNode().put("memberId", memberId);
    }

    private static Envelope envelope(String topic, String key, String type, String partnerId, Instant at, ObjectNode subject,
                                     ObjectNode data, ObjectNode webhook) {
        String id = UUID.randomUUID().toString();
        ObjectNode envelope = JsonNodeFactory.instance.objectNode().put("id", id).put("type", type).put("partnerId", partnerId)
                .put("occurredAt", at.toString());
        envelope.set("subject", subject);
        envelope.set("data", data);
        envelope.set("webhook", webhook);
        return new Envelope(id, topic, key, envelope.toString());
    }
}
