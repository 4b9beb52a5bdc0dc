package com.telemed.bench.support;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A service's log file under the bench platform ({@link BenchPlatform#log}): its WARN and ERROR lines
 * written after a given offset (so each phase's are told apart), counted by logger and message with
 * ids and numbers blanked out. Lines in the platform's format ({@code <time> LEVEL [logger] (thread)
 * [req:id] [partner:id] [trace:id] message}, or without the partner and trace as before issue 22);
 * stack trace lines are
 * not counted.
 */
public final class ServiceLog {

    /** ERROR and WARN lines, and each distinct {@code LEVEL [logger] message}, most frequent first. */
    public record Summary(long errors, long warnings, Map<String, Long> byMessage) {

        /** {@code N ERROR, M WARN lines}, then up to {@code lines} distinct messages, each on its own indented line. */
        public String describe(int lines) {
            StringBuilder out = new StringBuilder(errors + " ERROR, " + warnings + " WARN lines");
            byMessage.entrySet().stream().limit(lines)
                    .forEach(e -> out.append(String.format("%n      %5d x %s", e.getValue(), e.getKey())));
            if (byMessage.size() > lines) {
                out.append(String.format("%n      ... and %d other messages", byMessage.size() - lines));
            }
            return out.toString();
        }
    }

    private static final Pattern LINE = Pattern.compile("^\\S+ (ERROR|WARN)\\s+(\\[[^\\]]*\\]) \\(.*?\\) \\[req:[^\\]]*\\] (?:\\[partner:[^\\]]*\\] )?(?:\\[trace:[^\\]]*\\] )?(.*)$");
    private static final Pattern UUID = Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
    private static final Pattern NUMBER = Pattern.compile("\\b\\d+\\b");
    private static final int MESSAGE_CHARS = 200;

    private ServiceLog() {
    }

    /** Where the log ends now: the offset to summarise from later. */
    public static long end(Path log) {
        try {
            return Files.size(log);
        } catch (IOException e) {
            return 0;
        }
    }

    public static Summary since(Path log, long offset) throws IOException {
        long errors = 0;
        long warnings = 0;
        Map<String, LongAdder> messages = new HashMap<>();
        List<String> lines = new ArrayList<>();
        try (RandomAccessFile file = new RandomAccessFile(log.toFile(), "r")) {
            file.seek(Math.min(offset, file.length()));
            byte[] rest = new byte[(int) Math.min(Integer.MAX_VALUE - 8, file.length() - file.getFilePointer())];
            file.readFully(rest);
            lines.addAll(new String(rest, StandardCharsets.UTF_8).lines().toList());
        }
        for (String line : lines) {
            Matcher m = LINE.matcher(line);
            if (!m.find()) {
                continue;
            }
            if (m.group(1).equals("ERROR")) {
                errors++;
            } else {
                warnings++;
            }
            String message = NUMBER.matcher(UUID.matcher(m.group(3)).replaceAll("<id>")).replaceAll("N");
            String key = m.group(1) + " " + m.group(2) + " "
                    + (message.length() > MESSAGE_CHARS ? message.substring(0, MESSAGE_CHARS) + "..." : message);
            messages.computeIfAbsent(key, k -> new LongAdder()).increment();
        }
        return new Summary(errors, warnings, LoadRun.sorted(messages));
    }
}
