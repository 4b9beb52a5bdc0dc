package com.telemed.web.console.admin;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/** Every log line the service writes while some calls run (the root logger: access lines, remote calls, errors). */
public final class LogLines {

    private LogLines() {
    }

    /**
     * The lines written while {@code calls} run, once the access lines of {@code answers} answers are there
     * (an access line is written when its answer ended, which may be just after the client read it).
     */
    public static List<String> during(int answers, Runnable calls) {
        List<String> lines = new CopyOnWriteArrayList<>();
        List<String> access = new CopyOnWriteArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                String line = record.getLoggerName() + " " + new SimpleFormatter().formatMessage(record)
                        + (record.getThrown() == null ? "" : " " + record.getThrown());
                lines.add(line);
                if (record.getLoggerName() != null && record.getLoggerName().endsWith("AccessLines")) {
                    access.add(line);
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger root = Logger.getLogger("");
        root.addHandler(capture);
        try {
            calls.run();
            await().atMost(Duration.ofSeconds(5)).until(() -> access.size() >= answers);
        } finally {
            root.removeHandler(capture);
        }
        return List.copyOf(lines);
    }
}
