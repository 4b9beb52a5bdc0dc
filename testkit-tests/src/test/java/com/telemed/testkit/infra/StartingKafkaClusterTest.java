package com.telemed.testkit.infra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * ./stack's broker while it starts beside the services (issue 44): its address at once, its pid and its stop
 * once the start is over, the start's failure as it was thrown.
 */
class StartingKafkaClusterTest {

    @Test
    void givesItsAddressBeforeTheBrokerIsReadyAndItsPidOnceItIs() {
        CompletableFuture<KafkaCluster> start = new CompletableFuture<>();
        StartingKafkaCluster starting = new StartingKafkaCluster("127.0.0.1:19092", start);

        assertEquals("127.0.0.1:19092", starting.bootstrapServers());
        assertFalse(start.isDone());

        Broker broker = new Broker();
        start.complete(broker);
        assertSame(broker, starting.await());
        assertEquals(4242, starting.pid());
        starting.close();
        assertTrue(broker.closed.get());
    }

    @Test
    void aFailedStartIsThrownAsItWasAndLeavesNothingToClose() {
        IllegalStateException failure = new IllegalStateException("Kafka did not create the topics in time");
        StartingKafkaCluster starting = new StartingKafkaCluster("127.0.0.1:19092", CompletableFuture.failedFuture(failure));

        assertSame(failure, assertThrows(IllegalStateException.class, starting::await));
        assertSame(failure, assertThrows(IllegalStateException.class, starting::pid));
        starting.close();
    }

    private static final class Broker implements KafkaCluster {
        final AtomicBoolean closed = new AtomicBoolean();

        @Override
        public String bootstrapServers() {
            return "127.0.0.1:19092";
        }

        @Override
        public long pid() {
            return 4242;
        }

        @Override
        public void close() {
            closed.set(true);
        }
    }
}
