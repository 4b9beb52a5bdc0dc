package com.telemed.bench.support;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServiceLogTest {

    @Test
    void warningsAndErrorsAfterTheOffsetByMessage(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("messaging-service.log");
        Files.writeString(log, "2026-11-24T22:57:38.007+0000 WARN  [co.te.me.ma.MailRelay] (executor-thread-16) [req:] before\n");
        long offset = ServiceLog.end(log);
        Files.writeString(log, """
                2026-11-24T22:57:39.007+0000 WARN  [co.te.me.ma.MailRelay] (executor-thread-16) [req:] sending a queued mail failed (attempt 1, retried later): java.net.ConnectException
                2026-11-24T22:57:40.009+0000 WARN  [co.te.me.ma.MailRelay] (executor-thread-2) [req:] [partner:] [trace:] sending a queued mail failed (attempt 12, retried later): java.net.ConnectException
                2026-11-24T22:57:40.010+0000 INFO  [io.quarkus] (main) [req:] started
                2026-11-24T22:57:41.000+0000 ERROR [io.qu.ve.ht.ru.QuarkusErrorHandler] (executor-thread-3) [req:4f1c2a] [partner:partner-7] [trace:4bf92f3577b34da6a3ce929d0e0e4736] HTTP Request to /v1/messages/conversations/0b6f9a3e-2c41-4d5e-9a7b-1c2d3e4f5a6b/messages failed
                	at some.Frame(Frame.java:1)
                """, java.nio.file.StandardOpenOption.APPEND);

        ServiceLog.Summary summary = ServiceLog.since(log, offset);

        assertEquals(1, summary.errors());
        assertEquals(2, summary.warnings());
        assertEquals(Map.of(
                "WARN [co.te.me.ma.MailRelay] sending a queued mail failed (attempt N, retried later): java.net.ConnectException", 2L,
                "ERROR [io.qu.ve.ht.ru.QuarkusErrorHandler] HTTP Request to /v1/messages/conversations/<id>/messages failed", 1L),
                summary.byMessage());
    }
}
