package com.telemed.common.outbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.common.retention.RetentionJob;
import com.telemed.testkit.quarkus.InfrastructureResource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A service that enables neither the outbox nor retention (the gateway) has none of their beans and
 * neither relay nor retention thread.
 */
@QuarkusTest
@TestProfile(OutboxDisabledTest.Disabled.class)
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
class OutboxDisabledTest {

    public static class Disabled implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("platform.outbox.enabled", "false", "platform.retention.enabled", "false");
        }
    }

    @Inject
    Instance<Outbox> outbox;

    @Inject
    Instance<OutboxRelay> relay;

    @Inject
    Instance<RetentionJob> retention;

    @Test
    void noOutboxBeansAndNoRelayThread() {
        assertTrue(outbox.isUnsatisfied(), "Outbox bean");
        assertTrue(relay.isUnsatisfied(), "OutboxRelay bean");
        List<String> relayThreads = Thread.getAllStackTraces().keySet().stream()
                .filter(Thread::isAlive).map(Thread::getName).filter(name -> name.startsWith("outbox-relay")).toList();
        assertEquals(List.of(), relayThreads);
    }

    @Test
    void noRetentionJobAndNoRetentionThread() {
        assertTrue(retention.isUnsatisfied(), "RetentionJob bean");
        List<String> threads = Thread.getAllStackTraces().keySet().stream()
                .filter(Thread::isAlive).map(Thread::getName).filter(name -> name.equals("retention")).toList();
        assertEquals(List.of(), threads);
    }
}
