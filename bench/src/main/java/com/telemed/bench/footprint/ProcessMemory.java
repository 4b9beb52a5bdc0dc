package com.telemed.bench.footprint;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What Linux says of a process ({@code /proc/<pid>/...}): its resident set ({@code VmRSS} of
 * {@code status}), its proportional set ({@code Pss} of {@code smaps_rollup}: shared pages divided
 * among the processes sharing them, so that PostgreSQL's backends are not each counted with the
 * whole shared memory), its children, and how long after the machine's boot it started.
 */
final class ProcessMemory {

    private static final Pattern RSS = Pattern.compile("^VmRSS:\\s+(\\d+) kB", Pattern.MULTILINE);
    private static final Pattern PSS = Pattern.compile("^Pss:\\s+(\\d+) kB", Pattern.MULTILINE);
    /** USER_HZ: the unit of {@code stat}'s start time; 100 on every Linux this runs on. */
    private static final double CLOCK_TICKS = 100.0;

    private ProcessMemory() {
    }

    /** The resident set in kB; empty when the process is gone. */
    static OptionalLong rssKb(long pid) {
        return field(Path.of("/proc", Long.toString(pid), "status"), RSS);
    }

    /** The proportional set in kB; empty when the process is gone or its maps are not readable. */
    static OptionalLong pssKb(long pid) {
        return field(Path.of("/proc", Long.toString(pid), "smaps_rollup"), PSS);
    }

    /** Every process whose parent is {@code pid} (PostgreSQL's backends and workers under the postmaster). */
    static List<Long> children(long pid) {
        List<Long> children = new ArrayList<>();
        try (Stream<Path> all = Files.list(Path.of("/proc"))) {
            all.filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit)).forEach(p -> {
                String[] stat = stat(p.resolve("stat"));
                if (stat != null && Long.parseLong(stat[1]) == pid) {
                    children.add(Long.parseLong(p.getFileName().toString()));
                }
            });
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return children;
    }

    /** Seconds from the machine's boot to the process's start ({@code stat}'s 22nd field); NaN when gone. */
    static double startedAfterBoot(long pid) {
        String[] stat = stat(Path.of("/proc", Long.toString(pid), "stat"));
        return stat == null ? Double.NaN : Long.parseLong(stat[19]) / CLOCK_TICKS;
    }

    /** CPU seconds the process has used so far, user and system ({@code stat}'s 14th and 15th fields); NaN when gone. */
    static double cpuSeconds(long pid) {
        String[] stat = stat(Path.of("/proc", Long.toString(pid), "stat"));
        return stat == null ? Double.NaN : (Long.parseLong(stat[11]) + Long.parseLong(stat[12])) / CLOCK_TICKS;
    }

    /** The command line, arguments joined by spaces; empty when gone. */
    static String commandLine(long pid) {
        try {
            return new String(Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline")),
                    java.nio.charset.StandardCharsets.UTF_8).replace('\0', ' ');
        } catch (IOException gone) {
            return "";
        }
    }

    /** The command line, one argument each, as the process was started ({@code cmdline}). */
    static List<String> arguments(long pid) throws IOException {
        String all = new String(Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline")),
                java.nio.charset.StandardCharsets.UTF_8);
        return List.of(all.split("\0"));
    }

    /** The environment the process was started with ({@code environ}). */
    static Map<String, String> environment(long pid) throws IOException {
        String all = new String(Files.readAllBytes(Path.of("/proc", Long.toString(pid), "environ")),
                java.nio.charset.StandardCharsets.UTF_8);
        Map<String, String> environment = new LinkedHashMap<>();
        for (String entry : all.split("\0")) {
            int equals = entry.indexOf('=');
            if (equals > 0) {
                environment.put(entry.substring(0, equals), entry.substring(equals + 1));
            }
        }
        return environment;
    }

    /** Seconds since the machine's boot, now ({@code /proc/uptime}): the same clock as {@link #startedAfterBoot}. */
    static double uptime() {
        try {
            return Double.parseDouble(Files.readString(Path.of("/proc/uptime")).split("\\s+")[0]);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The fields of a {@code stat} after the command's name (the third field, its state, first); null when gone. */
    private static String[] stat(Path file) {
        try {
            String line = Files.readString(file);
            return line.substring(line.lastIndexOf(')') + 2).trim().split("\\s+");
        } catch (IOException | RuntimeException gone) {
            return null;
        }
    }

    private static OptionalLong field(Path file, Pattern pattern) {
        try {
            Matcher m = pattern.matcher(Files.readString(file));
            return m.find() ? OptionalLong.of(Long.parseLong(m.group(1))) : OptionalLong.empty();
        } catch (IOException | RuntimeException gone) {
            return OptionalLong.empty();
        }
    }
}
