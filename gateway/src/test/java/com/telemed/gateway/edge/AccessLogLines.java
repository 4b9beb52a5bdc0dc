package com.telemed.gateway.edge;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/** The gateway's access-log lines (logger {@code access}) written while some calls run. */
final class AccessLogLines {

    private AccessLogLines() {
    }

    /**
     * The lines written while {@code calls} run, once {@code count} of them are there: a line is
     * written when its answer ended, which may be just after the client read it.
     */
    static List<String> during(int count, Runnable calls) {
        List<String> lines = new CopyOnWriteArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                lines.add(new SimpleFormatter().formatMessage(record));
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger access = Logger.getLogger("access");
        access.addHandler(capture);
        try {
            calls.run();
            await().atMost(Duration.ofSeconds(5)).until(() -> lines.size() >= count);
        } finally {
            access.removeHandler(capture);
        }
        return List.copyOf(lines);
    }

    /** A line's method, path and status ({@code GET /book/[redacted] 404}), without duration, partner and request id. */
    static String head(String line) {
        return line.substring(0, line.indexOf(" ", line.indexOf(" ", line.indexOf(" ") + 1) + 1));
    }
}
