package com.telemed.webhook.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The recorder's batch split: one UPDATE ... FROM unnest counts a delivery once, so a repeated one goes to a later round. */
class DeliveryStoreTest {

    private static Outcome outcome(UUID id, int status) {
        return new Outcome(Job.signed(id, "p-1", "http://127.0.0.1/", "{}", "1700000000", "sha256=00", 0),
                Instant.EPOCH, status, null, 1);
    }

    @Test
    void distinctDeliveriesAreOneRound() {
        Outcome a = outcome(UUID.randomUUID(), 200);
        Outcome b = outcome(UUID.randomUUID(), 500);
        assertEquals(List.of(List.of(a, b)), DeliveryStore.rounds(List.of(a, b)));
    }

    @Test
    void aRepeatedDeliveryGoesToTheNextRoundInOrder() {
        UUID id = UUID.randomUUID();
        Outcome first = outcome(id, 500);
        Outcome other = outcome(UUID.randomUUID(), 200);
        Outcome second = outcome(id, 500);
        Outcome third = outcome(id, 200);
        assertEquals(List.of(List.of(first, other), List.of(second), List.of(third)),
                DeliveryStore.rounds(List.of(first, other, second, third)));
    }

    @Test
    void noOutcomesNoRounds() {
        assertEquals(List.of(), DeliveryStore.rounds(List.of()));
    }
}
