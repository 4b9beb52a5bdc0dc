package com.telemed.testkit.http;

import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Where the test-side clients report each {@link Exchange}, once answered, to whatever listens in
 * this JVM (nothing, unless an end-to-end platform started: then the contract check and the log
 * scan's record). Every listener hears every exchange; the first failure of one is thrown to the
 * caller after all have heard it, so that a drift fails the call that met it.
 */
public final class Exchanges {

    @FunctionalInterface
    public interface Listener {
        void answered(Exchange exchange);
    }

    private static final CopyOnWriteArrayList<Listener> LISTENERS = new CopyOnWriteArrayList<>();

    private Exchanges() {
    }

    /** Adds a listener (once: adding one already there changes nothing); closing the handle removes it. */
    public static AutoCloseable listen(Listener listener) {
        LISTENERS.addIfAbsent(listener);
        return () -> LISTENERS.remove(listener);
    }

    public static void answered(Exchange exchange) {
        Throwable first = null;
        for (Listener listener : LISTENERS) {
            try {
                listener.answered(exchange);
            } catch (RuntimeException | Error e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first instanceof RuntimeException runtime) {
            throw runtime;
        }
        if (first != null) {
            throw (Error) first;
        }
    }
}
