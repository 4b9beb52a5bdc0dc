package com.telemed.testkit.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.telemed.testkit.platform.PlatformService;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The end-to-end platform's consumers get the broker's least session timeout: every channel whose
 * session timeout a service's application.properties sets, read from the checkout, no list kept by
 * hand.
 */
class ConsumerSessionsTest {

    private static final Map<String, String> CARE_EVENTS = Map.of(
            "MP_MESSAGING_INCOMING_CARE_EVENTS_SESSION_TIMEOUT_MS", "6000",
            "MP_MESSAGING_INCOMING_CARE_EVENTS_HEARTBEAT_INTERVAL_MS", "2000");

    @Test
    void everyConsumerWithASessionTimeoutGetsTheBrokersLeast() {
        Map<PlatformService, Map<String, String>> sessions = RunningPlatform.consumerSessions(RunningPlatform.projectRoot());

        assertEquals(Map.of(
                PlatformService.BILLING, Map.of(
                        "MP_MESSAGING_INCOMING_CARE_EVENTS_SESSION_TIMEOUT_MS", "6000",
                        "MP_MESSAGING_INCOMING_CARE_EVENTS_HEARTBEAT_INTERVAL_MS", "2000",
                        "MP_MESSAGING_INCOMING_MEMBER_EVENTS_SESSION_TIMEOUT_MS", "6000",
                        "MP_MESSAGING_INCOMING_MEMBER_EVENTS_HEARTBEAT_INTERVAL_MS", "2000"),
                PlatformService.MESSAGING, CARE_EVENTS,
                PlatformService.REQUESTS, Map.of(
                        "MP_MESSAGING_INCOMING_CATALOGUE_EVENTS_SESSION_TIMEOUT_MS", "6000",
                        "MP_MESSAGING_INCOMING_CATALOGUE_EVENTS_HEARTBEAT_INTERVAL_MS", "2000"),
                PlatformService.WEBHOOK, Map.of(
                        "MP_MESSAGING_INCOMING_CARE_EVENTS_SESSION_TIMEOUT_MS", "6000",
                        "MP_MESSAGING_INCOMING_CARE_EVENTS_HEARTBEAT_INTERVAL_MS", "2000",
                        "MP_MESSAGING_INCOMING_MESSAGING_EVENTS_SESSION_TIMEOUT_MS", "6000",
                        "MP_MESSAGING_INCOMING_MESSAGING_EVENTS_HEARTBEAT_INTERVAL_MS", "2000")), sessions);
    }
}
