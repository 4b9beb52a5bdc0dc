package com.telemed.common.outbox;

/** One pending outbox row as the relay reads it; the payload is the envelope JSON, never logged. */
record OutboxRow(long id, String topic, String key, String payload) {

    @Override
    public String toString() {
        return "OutboxRow[id=" + id + ", topic=" + topic + "]";
    }
}
