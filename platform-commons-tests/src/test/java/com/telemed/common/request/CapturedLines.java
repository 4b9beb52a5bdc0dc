package com.telemed.common.request;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.jboss.logmanager.ExtHandler;
import org.jboss.logmanager.ExtLogRecord;
import org.jboss.logmanager.LogContext;
import org.jboss.logmanager.handlers.ConsoleHandler;

/**
 * An in-memory handler on {@link LogProbeResource}'s logger: each record's log context (read on the
 * thread that logged it) and the record as the service's console handler formats it.
 */
final class CapturedLines extends Handler implements AutoCloseable {

    /** One record: its request, partner and trace ids as the log context held them, and its console line. */
    record Line(String requestId, String partnerId, String traceId, String console) {
    }

    private final Formatter console = consoleFormatter();
    private final List<Line> lines = new CopyOnWriteArrayList<>();
    private final Logger logger = Logger.getLogger(LogProbeResource.LOGGER);

    CapturedLines() {
        logger.addHandler(this);
    }

    List<Line> lines() {
        return List.copyOf(lines);
    }

    /** The formatter of the console handler Quarkus configured (below its delayed and async handlers). */
    static Formatter consoleFormatter() {
        Formatter found = find(LogContext.getLogContext().getLogger("").getHandlers());
        if (found == null) {
            throw new AssertionError("no console handler on the root logger");
        }
        return found;
    }

    private static Formatter find(Handler[] handlers) {
        for (Handler handler : handlers) {
            if (handler instanceof ConsoleHandler) {
                return handler.getFormatter();
            }
            if (handler instanceof ExtHandler parent) {
                Formatter below = find(parent.getHandlers());
                if (below != null) {
                    return below;
                }
            }
        }
        return null;
    }

    @Override
    public void publish(LogRecord record) {
        ExtLogRecord ext = (ExtLogRecord) record;
        // Read here, on the thread that logged: the copy is the log context of the call.
        Map<String, String> mdc = ext.getMdcCopy();
        lines.add(new Line(mdc.get(RequestIds.MDC_KEY), mdc.get(RequestIds.PARTNER_MDC_KEY), mdc.get("traceId"),
                console.format(record)));
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
        logger.removeHandler(this);
    }
}
