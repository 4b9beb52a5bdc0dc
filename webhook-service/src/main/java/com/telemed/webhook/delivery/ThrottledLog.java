package com.telemed.webhook.delivery;

import com.telemed.common.error.Failures;
import org.jboss.logging.Logger;

/**
 * Logs a failing loop once when it starts failing, then at most once a minute, and once on
 * recovery. Failures as class names only ({@link Failures}): messages can quote patient data.
 */
public final class ThrottledLog {

    private static final long REPEAT_MS = 60_000;

    private final Logger log;
    private final String what;
    private long failingSince = -1;
    private long lastLogged = -1;

    public ThrottledLog(Logger log, String what) {
        this.log = log;
        this.what = what;
    }

    public synchronized void failed(Throwable failure) {
        long now = System.currentTimeMillis();
        if (failingSince < 0) {
            failingSince = now;
        }
        if (lastLogged < 0 || now - lastLogged >= REPEAT_MS) {
            lastLogged = now;
            log.warnf("%s failed: %s; retrying", what, Failures.describe(failure));
        }
    }

    public synchronized void recovered() {
        if (failingSince >= 0) {
            log.infof("%s works again after %d ms", what, System.currentTimeMillis() - failingSince);
            failingSince = -1;
            lastLogged = -1;
        }
    }
}
