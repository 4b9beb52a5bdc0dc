package com.telemed.testkit.logscan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.telemed.testkit.logscan.SensitiveValues.Kind;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogScanTest {

    @TempDir
    Path logs;

    @Test
    void findsEveryValueStandingOnItsOwnWithFileLineAndKind() throws IOException {
        Path shared = Files.createDirectories(logs.resolve("platform-logs"));
        Path privateOne = Files.createDirectories(logs.resolve("platform-logs-chaos"));
        Files.writeString(shared.resolve("gateway.log"), """
                03:00:01 INFO  [edge] POST /v1/members 201 12ms
                03:00:02 WARN  [members] validation failed for GRACE@EXAMPLE.COM
                03:00:03 INFO  [members] graceful shutdown of Gracefully
                """);
        Files.writeString(shared.resolve("members-service.log"), "03:00:04 DEBUG key=apx_0123456789abcdef0123456789abcdef\n");
        Files.write(privateOne.resolve("messaging-service.log"),
                "bad byte \u00ff then: Grace Hopper wrote\n".getBytes(StandardCharsets.ISO_8859_1));
        LogScan scan = new LogScan(Map.of("Grace", Kind.NAME, "grace@example.com", Kind.EMAIL,
                "apx_0123456789abcdef0123456789abcdef", Kind.API_KEY, "1906-12-09", Kind.DATE_OF_BIRTH));

        LogScan.Result result = scan.scan(List.of(shared, privateOne, logs.resolve("platform-logs-absent")));

        assertEquals(Map.of(shared.resolve("gateway.log"), 3L, shared.resolve("members-service.log"), 1L,
                privateOne.resolve("messaging-service.log"), 1L), result.linesPerFile());
        // The name stands on its own in the email too (an @ is no letter); not in "graceful" or "Gracefully".
        assertEquals(List.of(shared.resolve("gateway.log") + ":2: email grace@example.com", shared.resolve("gateway.log") + ":2: name Grace",
                        shared.resolve("members-service.log") + ":1: API key apx_0123456789abcdef0123456789abcdef",
                        privateOne.resolve("messaging-service.log") + ":1: name Grace"),
                result.hits().stream().map(LogScan.Hit::toString).toList());
    }

    @Test
    void aJsonLineIsScannedByItsStringsDecodedButNotByTheNamesOfItsCode() throws IOException {
        Path log = Files.createDirectories(logs.resolve("platform-logs")).resolve("messaging-service.log");
        // As quarkus-logging-json writes: a quote, a line feed and non-ASCII escaped inside the message.
        Files.writeString(log, String.join("\n",
                "{\"timestamp\":\"03:00:01\",\"level\":\"INFO\",\"message\":\"upload \\\"O\\u2019Brien \\\"scan\\\".pdf\\\" stored\"}",
                "{\"level\":\"WARN\",\"message\":\"Zo\\u00eblle wrote: line one\\nline two\",\"service\":\"messaging-service\"}",
                "{\"level\":\"WARN\",\"message\":\"plain Zo\u00eblle\"}",
                "{not json but braces Zo\u00eblle}",
                // A logger's name is code: its "trust" is no name Trust; the same word in the message is.
                "{\"loggerName\":\"com.telemed.common.trust.ServiceProofCheck\",\"message\":\"refused\",\"threadName\":\"trust-1\"}",
                "{\"loggerName\":\"com.telemed.common.trust.ServiceProofCheck\",\"message\":\"member Trust refused\"}",
                ""));
        LogScan scan = new LogScan(Map.of("O\u2019Brien \"scan\".pdf", Kind.FILE_NAME, "Zo\u00eblle", Kind.NAME, "Trust", Kind.NAME,
                "line one\nline two", Kind.MESSAGE_TEXT));

        LogScan.Result result = scan.scan(List.of(log.getParent()));

        assertEquals(List.of(log + ":1: attachment file name O\u2019Brien \"scan\".pdf", log + ":2: name Zo\u00eblle",
                        log + ":2: message text line one\nline two", log + ":3: name Zo\u00eblle", log + ":4: name Zo\u00eblle",
                        log + ":6: name Trust"),
                result.hits().stream().map(LogScan.Hit::toString).toList());
    }

    @Test
    void onlyThisRunsPartOfALogIsScannedWithTheFilesLineNumbers() throws IOException {
        Path log = Files.createDirectories(logs.resolve("platform-logs")).resolve("gateway.log");
        Files.writeString(log, "old run: Grace\nold run: Grace again\n");
        LogStarts.markBeforeWriting(log.getParent());
        Files.writeString(log, "this run: nothing\nthis run: Grace\n", java.nio.file.StandardOpenOption.APPEND);

        LogScan.Result result = new LogScan(Map.of("Grace", Kind.NAME), LogStarts::start).scan(List.of(log.getParent()));

        assertEquals(Map.of(log, 2L), result.linesPerFile());
        assertEquals(List.of(log + ":4: name Grace"), result.hits().stream().map(LogScan.Hit::toString).toList());
    }
}
