package com.telemed.requests;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;

/**
 * A datasource pool of {@link #MAX_SIZE} connections that fails a caller after waiting one
 * second for one: a call that keeps a connection while it waits for a neighbour shows at once,
 * as a {@code 500} of the next reader, instead of as a slow answer.
 */
public class SmallPoolResource implements QuarkusTestResourceLifecycleManager {

    public static final int MAX_SIZE = 2;

    @Override
    public Map<String, String> start() {
        return Map.of(
                "quarkus.datasource.jdbc.max-size", String.valueOf(MAX_SIZE),
                "quarkus.datasource.jdbc.min-size", "0",
                "quarkus.datasource.jdbc.acquisition-timeout", "1s");
    }

    @Override
    public void stop() {
        // Nothing started.
    }
}
