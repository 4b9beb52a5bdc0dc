package com.telemed.testkit.infra;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Loopback ports that were free a moment ago, for components that need their port up front.
 *
 * <p>Drawn below Linux's ephemeral range (32768-60999), never with "port 0": the kernel hands out
 * ephemeral ports to every outgoing connection and to every other server asking for port 0 (the
 * services' own Quarkus tests, Kafka clients), so a port chosen there and bound seconds later by
 * a starting JVM was sometimes taken by then, and another process answered its readiness probe.
 * Nor is a port handed out twice in one JVM: drawn at random, two services of one platform were
 * once given the same one, and the gateway, failing to bind its management port, was taken for
 * ready because web-service answered the probe there.
 */
public final class FreePorts {

    private static final int FIRST = 20_000;
    private static final int END = 32_000;
    /** Every port this JVM handed out: none is handed out again. */
    private static final Set<Integer> GIVEN = ConcurrentHashMap.newKeySet();

    private FreePorts() {
    }

    public static int next() {
        for (int tries = 0; tries < 200; tries++) {
            int port = ThreadLocalRandom.current().nextInt(FIRST, END);
            if (!GIVEN.add(port)) {
                continue;
            }
            try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                return port;
            } catch (IOException taken) {
                GIVEN.remove(port); // another process holds it: free again later, perhaps
            }
        }
        throw new IllegalStateException("no free loopback port in " + FIRST + "-" + END);
    }
}
