package com.telemed.testkit.infra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.testkit.concurrent.Parallel;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Ports below the ephemeral range, and none handed out twice in one JVM, however many threads ask. */
class FreePortsTest {

    @Test
    void noPortIsHandedOutTwice() throws Exception {
        List<Integer> ports = Parallel.map(4, IntStream.range(0, 3_000).boxed().toList(), n -> FreePorts.next());

        Set<Integer> distinct = new HashSet<>(ports);
        assertEquals(ports.size(), distinct.size(), "a port handed out twice");
        assertTrue(distinct.stream().allMatch(port -> port >= 20_000 && port < 32_000), "below Linux's ephemeral range");
    }
}
