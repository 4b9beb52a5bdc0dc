package com.telemed.testkit.infra;

/** A Kafka cluster someone else runs, named by PLATFORM_KAFKA_BOOTSTRAP_SERVERS. */
public record ExternalKafkaCluster(String bootstrapServers) implements KafkaCluster {

    @Override
    public long pid() {
        return -1;
    }

    @Override
    public void close() {
        // Not ours to stop.
    }
}
