package com.telemed.common.outbox;

/**
 * One pending outbox row as the relay reads it; the payload is the envelope JSON, never logged. The
 * traceparent is the W3C trace context of the call that recorded it (null outside a trace).
 */
record OutboxRow(long id, String topic, String key, String payload, String traceparent) {

    @Override
    public String toString() {
        return "OutboxRow[id=" + id + ", topic=" + topic + "]";
    }
}
