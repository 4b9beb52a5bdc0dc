package com.telemed.common.error;

import java.util.StringJoiner;

/**
 * Describes a failure for the log without its messages: driver and parser messages can quote
 * the data that failed (a duplicate email, a date of birth), and patient data never goes to logs.
 */
public final class Failures {

    private static final int FRAMES = 8;

    private Failures() {
    }

    public static String describe(Throwable failure) {
        StringJoiner chain = new StringJoiner(" <- ");
        Throwable root = failure;
        for (Throwable t = failure; t != null && chain.length() < 2000; t = t.getCause()) {
            chain.add(t.getClass().getName());
            root = t;
        }
        StringBuilder text = new StringBuilder(chain.toString());
        StackTraceElement[] frames = root.getStackTrace();
        for (int i = 0; i < Math.min(FRAMES, frames.length); i++) {
            text.append("\n\tat ").append(frames[i]);
        }
        return text.toString();
    }
}
