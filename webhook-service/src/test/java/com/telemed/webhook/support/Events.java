package com.telemed.webhook.support;

import com.telemed.testkit.kafka.TopicWriter;
import com.telemed.testkit.quarkus.InfrastructureResource;
import java.util.UUID;

/** Publishes envelopes the way the outbox relay does: a plain Kafka producer, the JSON text as value. */
public final class Events {

    private Events() {
    }

    /** An envelope as the publishing services serialise it, with this exact webhook text. */
    public static String envelope(String id, String partnerId, String type, String webhookJson) {
        return "{\"id\":\"" + id + "\",\"type\":\"" + type + "\",\"partnerId\":\"" + partnerId + "\","
                + "\"occurredAt\":\"2026-11-21T09:30:00.000Z\",\"subject\":{\"requestId\":\"r-1\"},"
                + "\"data\":{\"internal\":true},\"webhook\":" + webhookJson + "}";
    }

    /** A webhook payload of an item event, with a patient name. */
    public static String itemApproved(String requestId) {
        return "{\"event\":\"item.approved\",\"requestId\":\"" + requestId + "\",\"itemId\":\"i-1\","
                + "\"status\":\"approved\",\"patientName\":\"Zoë Ångström\",\"prescriptionName\":\"Drug 1.50\","
                + "\"timestamp\":\"2026-11-21T09:30:00.000Z\"}";
    }

    public static String newId() {
        return UUID.randomUUID().toString();
    }

    public static void publish(String topic, String key, String... envelopes) {
        TopicWriter.publish(InfrastructureResource.running().kafka().bootstrapServers(), topic, key, envelopes);
    }
}
