package com.telemed.testkit.infra;

/** A running Kafka cluster the platform publishes its events on. */
public interface KafkaCluster extends AutoCloseable {

    String bootstrapServers();

    /** Process id of the broker when this kit started it, else -1. */
    long pid();

    @Override
    void close();
}
