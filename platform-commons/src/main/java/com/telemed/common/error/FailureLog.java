package com.telemed.common.error;

import java.util.HashMap;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * Logs a failing dependency once when it starts failing, then at most once a minute, and once
 * when it recovers: a broker outage must not write a stack trace every 200 ms, nor an SMTP outage a
 * line per mail. Failures are logged as class names only (exception messages can quote patient
 * data). Used by the outbox relay and messaging-service's mail relay.
 */
public final class FailureLog {

    private static final long REPEAT_MS = 60_000;

    private final Logger log;
    private final String who;
    private final Map<String, Long> failingSince = new HashMap<>();
    private final Map<String, Long> lastLogged = new HashMap<>();

    /** {@code who} names the retrying loop in the recovery line ({@code Outbox relay}, {@code Mail relay}). */
    public FailureLog(Logger log, String who) {
        this.log = log;
        this.who = who;
    }

    public synchronized void failed(String dependency, String what, Throwable failure) {
        long now = System.currentTimeMillis();
        failingSince.putIfAbsent(dependency, now);
        Long last = lastLogged.get(dependency);
        if (last == null || now - last >= REPEAT_MS) {
            lastLogged.put(dependency, now);
            log.warnf("%s: %s; retrying every tick", what, chain(failure));
        }
    }

    public synchronized void recovered(String dependency) {
        Long since = failingSince.remove(dependency);
        lastLogged.remove(dependency);
        if (since != null) {
            log.infof("%s reaches the %s again after %d ms", who, dependency, System.currentTimeMillis() - since);
        }
    }

    /** Whether some dependency failed and has not recovered since. */
    public synchronized boolean failing() {
        return !failingSince.isEmpty();
    }

    private static String chain(Throwable failure) {
        String described = Failures.describe(failure);
        int frames = described.indexOf('\n');
        return frames < 0 ? described : described.substring(0, frames);
    }
}
