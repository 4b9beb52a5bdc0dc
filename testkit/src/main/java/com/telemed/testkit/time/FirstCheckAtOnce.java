package com.telemed.testkit.time;

import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * Every test's Awaitility wait checks its condition at once, then every poll interval. Awaitility's
 * own default first waits one poll interval (100 ms) even for a condition that already holds, which
 * the suite paid thousands of times (the bad-input property settles after every successful call).
 * What a wait checks, and how long it may take, is unchanged.
 *
 * <p>A JUnit Platform session listener ({@code META-INF/services}), so every test JVM that has this
 * kit starts so. A Quarkus test's classes load Awaitility again in their application's class
 * loader: {@link FirstCheckAtOnceInQuarkusTests} sets it there.
 */
public final class FirstCheckAtOnce implements LauncherSessionListener {

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        apply();
    }

    /** Awaitility's default poll delay, in the caller's class loader: none. */
    public static void apply() {
        Awaitility.setDefaultPollDelay(Duration.ZERO);
    }
}
