package com.telemed.testkit.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** {@code STACK_START_TIMEOUT}: how long ./stack up waits for each service, 120 s unless set. */
class StackStartTimeoutTest {

    @Test
    void unsetIsTwoMinutesAndANumberIsSeconds() {
        assertEquals(Duration.ofSeconds(120), StackMain.startTimeout(null));
        assertEquals(Duration.ofSeconds(120), StackMain.startTimeout(" "));
        assertEquals(Duration.ofSeconds(600), StackMain.startTimeout("600"));
        assertEquals(Duration.ofSeconds(45), StackMain.startTimeout(" 45 "));
    }

    @Test
    void anythingElseIsRefusedNamingTheSetting() {
        for (String wrong : new String[] {"0", "-5", "2m", "ten"}) {
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> StackMain.startTimeout(wrong));
            assertEquals("STACK_START_TIMEOUT must be a positive number of seconds, not '" + wrong + "'", refused.getMessage());
        }
    }

    @Test
    void classArchivesUnlessSwitchedOff() {
        assertEquals(true, StackMain.classArchives(null));
        assertEquals(true, StackMain.classArchives(""));
        assertEquals(false, StackMain.classArchives("off"));
        assertEquals(false, StackMain.classArchives(" OFF "));
    }

    @Test
    void everyServiceWaitsUpTo30SecondsForAConnectionAndClosesOnesIdleFor30Seconds() {
        assertEquals(java.util.Map.of("OPS_API_KEY", "ops_1", "SERVICE_ENVIRONMENT", "sandbox",
                        "QUARKUS_DATASOURCE_JDBC_ACQUISITION_TIMEOUT", "30S", "QUARKUS_DATASOURCE_JDBC_IDLE_REMOVAL_INTERVAL", "30S"),
                StackMain.stackEnvironment("ops_1", "sandbox"));
    }
}
