package com.telemed.testkit.time;

import io.quarkus.test.junit.callback.QuarkusTestBeforeEachCallback;
import io.quarkus.test.junit.callback.QuarkusTestMethodContext;
import java.time.Duration;
import org.awaitility.Awaitility;

/**
 * {@link FirstCheckAtOnce} in the class loader of a {@code @QuarkusTest}'s application, before each of
 * its methods (a Quarkus test callback, {@code META-INF/services}).
 */
public final class FirstCheckAtOnceInQuarkusTests implements QuarkusTestBeforeEachCallback {

    @Override
    public void beforeEach(QuarkusTestMethodContext context) {
        // As FirstCheckAtOnce.apply(), without its JUnit launcher interface in this loader.
        Awaitility.setDefaultPollDelay(Duration.ZERO);
    }
}
