package com.telemed.testkit.infra;

import java.util.concurrent.CompletableFuture;

/**
 * ./stack's broker while it may still be starting ({@link Infrastructure#startPersistent}): its address is
 * known before it answers (a fixed port), so the services start beside it; {@link #await} waits for the
 * start to finish (the broker ready and the platform's topics created) and throws as the start did.
 */
final class StartingKafkaCluster implements KafkaCluster {

    private final String bootstrapServers;
    private final CompletableFuture<KafkaCluster> start;

    StartingKafkaCluster(String bootstrapServers, CompletableFuture<KafkaCluster> start) {
        this.bootstrapServers = bootstrapServers;
        this.start = start;
    }

    /** The started broker, once it is ready with its topics; the start's failure as it was thrown. */
    KafkaCluster await() {
        return Infrastructure.awaitKafka(start);
    }

    @Override
    public String bootstrapServers() {
        return bootstrapServers;
    }

    /** The broker's process id once it started; waits for the start. */
    @Override
    public long pid() {
        return await().pid();
    }

    /** Stops the broker once its start is over; nothing to stop when the start failed (it stopped what it began). */
    @Override
    public void close() {
        KafkaCluster started;
        try {
            started = await();
        } catch (RuntimeException | Error failed) {
            return;
        }
        started.close();
    }
}
