package com.telemed.bench.support;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Drives a closed-loop load with wrk when the machine has it (Debian package {@code wrk}): a C
 * load generator costs a fraction of the CPU of a JVM client, which matters on two cores where
 * the load generator shares the machine with what it measures.
 */
public final class Wrk {

    /**
     * {@code requests}: the answers wrk counted (calls cut in flight at the end are not);
     * {@code statuses}: answers by HTTP status when the script counts them (bench/count-statuses.lua
     * prints {@code status <code> <count>} lines), else empty; {@code p95Ms}: when the script prints it
     * ({@code p95 <ms> ms}, bench/events-page.lua: wrk's own report has no 95th percentile), else NaN.
     */
    public record Result(String name, double perSecond, double p50Ms, double p99Ms, long errors, long requests,
                         Map<Integer, Long> statuses, double p95Ms) {
        public String line() {
            return String.format("%-34s %9.0f req/s   p50 %6.2f ms   p99 %6.2f ms   (%d non-2xx or errors)",
                    name, perSecond, p50Ms, p99Ms, errors);
        }
    }

    private static final Pattern RATE = Pattern.compile("Requests/sec:\\s+([\\d.]+)");
    private static final Pattern PERCENTILE = Pattern.compile("^\\s+(50|99)(?:\\.000)?%\\s+([\\d.]+)(us|ms|s)\\s*$");
    private static final Pattern NON_2XX = Pattern.compile("Non-2xx or 3xx responses:\\s+(\\d+)");
    private static final Pattern REQUESTS = Pattern.compile("^\\s*(\\d+) requests in ");
    private static final Pattern STATUS = Pattern.compile("^status (\\d{3}) (\\d+)$");
    private static final Pattern P95 = Pattern.compile("^p95 ([\\d.]+) ms$");
    private static final Pattern SOCKET_ERRORS = Pattern.compile("Socket errors: connect (\\d+), read (\\d+), write (\\d+), timeout (\\d+)");

    private Wrk() {
    }

    public static boolean available() {
        try {
            return new ProcessBuilder("wrk", "--version").redirectErrorStream(true).start().waitFor() >= 0;
        } catch (Exception e) {
            return false;
        }
    }

    public static Result run(String name, URI uri, String[] headers, int concurrency, Duration duration) throws Exception {
        return run(name, uri, headers, concurrency, duration, null, Map.of());
    }

    /**
     * POSTs of a JSON body, by bench/post-json.lua (every call a POST of the body in the environment
     * variable {@code WRK_BODY}).
     */
    public static Result post(String name, URI uri, String[] headers, String body, int concurrency, Duration duration)
            throws Exception {
        return run(name, uri, headers, concurrency, duration, BenchPlatform.root().resolve("bench/post-json.lua"),
                Map.of("WRK_BODY", body));
    }

    /** With a wrk Lua script ({@code -s}, e.g. to POST a body) and variables added to wrk's environment for it. */
    public static Result run(String name, URI uri, String[] headers, int concurrency, Duration duration, Path script,
                             Map<String, String> environment) throws Exception {
        List<String> command = new ArrayList<>(List.of("wrk", "-t", Integer.toString(Math.min(2, concurrency)), "-c", Integer.toString(concurrency),
                "-d", duration.toSeconds() + "s", "--latency"));
        for (int i = 0; i < headers.length; i += 2) {
            command.addAll(List.of("-H", headers[i] + ": " + headers[i + 1]));
        }
        if (script != null) {
            command.addAll(List.of("-s", script.toString()));
        }
        command.add(uri.toString());
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(environment);
        Process process = builder.start();
        double rate = 0;
        double p50 = 0;
        double p99 = 0;
        double p95 = Double.NaN;
        long errors = 0;
        long requests = 0;
        Map<Integer, Long> statuses = new TreeMap<>();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream()))) {
            for (String line; (line = out.readLine()) != null; ) {
                Matcher m;
                if ((m = RATE.matcher(line)).find()) {
                    rate = Double.parseDouble(m.group(1));
                } else if ((m = PERCENTILE.matcher(line)).find()) {
                    double value = Double.parseDouble(m.group(2)) * switch (m.group(3)) {
                        case "us" -> 0.001;
                        case "s" -> 1000.0;
                        default -> 1.0;
                    };
                    if (m.group(1).equals("50")) {
                        p50 = value;
                    } else {
                        p99 = value;
                    }
                } else if ((m = REQUESTS.matcher(line)).find()) {
                    requests = Long.parseLong(m.group(1));
                } else if ((m = P95.matcher(line)).find()) {
                    p95 = Double.parseDouble(m.group(1));
                } else if ((m = STATUS.matcher(line)).find()) {
                    statuses.merge(Integer.parseInt(m.group(1)), Long.parseLong(m.group(2)), Long::sum);
                } else if ((m = NON_2XX.matcher(line)).find()) {
                    errors += Long.parseLong(m.group(1));
                } else if ((m = SOCKET_ERRORS.matcher(line)).find()) {
                    for (int g = 1; g <= 4; g++) {
                        errors += Long.parseLong(m.group(g));
                    }
                }
            }
        }
        process.waitFor();
        return new Result(name, rate, p50, p99, errors, requests, statuses, p95);
    }
}
