package com.telemed.bench.footprint;

import com.telemed.bench.support.BenchPlatform;
import com.telemed.bench.support.Results;
import com.telemed.testkit.infra.FileTrees;
import com.telemed.testkit.platform.PlatformService;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

/**
 * Issue #44, footprint and start: {@code ./stack up} as a user runs it (everything built), twice on a
 * stack home of its own (the first {@code up} makes the data, the broker's storage and the class-data
 * archives; the second finds them, as every later {@code up} does), each time:
 * <ul>
 * <li>the wall time of {@code ./stack up} until it prints "Platform ready" (aim: 15 s);</li>
 * <li>each service's process start to its readiness endpoint ({@code /q/health/ready} on its management
 * port) first answering 200: the process's start from {@code /proc/<pid>/stat}, the answer polled every
 * 50 ms on the boot clock ({@code /proc/uptime}), all eight starting at once on the machine's cores;</li>
 * </ul>
 * then each service started alone (a second instance of it, one at a time, with the platform up and idle: a
 * pod on a node of its own), process start to ready: the figure of the 3 s aim for the slowest ({@link #alone});
 * and after the second, once the platform has been idle for {@code idle} seconds, the resident set
 * ({@code VmRSS}) of every process of it: the eight service JVMs (aim: 150 MB each), the launcher (with the
 * SMTP server in it), Kafka, and PostgreSQL's postmaster with every process under it; and the proportional
 * set of each ({@code Pss} of {@code /proc/<pid>/smaps_rollup}: a page shared by n processes counts 1/n in
 * each), whose sum is the whole platform's memory (aim: 1.5 GB). The sum of the resident sets is kept beside
 * it, but it is not the platform's memory: it counts a shared page once per process that maps it, PostgreSQL's
 * shared buffers once per backend (its RSS some 300 MB, its PSS some 60), the JVM's code and the JDK's
 * class-data archive once per JVM. The stack's fixed ports must be free (no other ./stack running).
 *
 * <p>Run: bench/footprint.sh [idle seconds=30]
 */
public final class FootprintBench {

    static final double AIM_SERVICE_RSS_MB = 150;
    static final double AIM_PLATFORM_MB = 1536;
    static final double AIM_READY_SECONDS = 3;
    static final double AIM_STACK_UP_SECONDS = 15;
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();

    /** One {@code ./stack up}: its wall time, and each service's seconds from process start to ready. */
    record Up(double seconds, Map<PlatformService, Double> readySeconds, Map<PlatformService, Double> cpuAtReady,
              Map<String, Long> pids) {
    }

    public static void main(String[] args) throws Exception {
        int idleSeconds = args.length > 0 ? Integer.parseInt(args[0]) : 30;
        Results results = Results.open("footprint", args).parameter("idleSeconds", idleSeconds)
                .parameter("aimServiceRssMb", AIM_SERVICE_RSS_MB).parameter("aimPlatformPssMb", AIM_PLATFORM_MB)
                .parameter("aimReadySeconds", AIM_READY_SECONDS).parameter("aimStackUpSeconds", AIM_STACK_UP_SECONDS);
        Path root = BenchPlatform.root();
        requireFreePorts();
        Path home = Files.createTempDirectory("footprint-stack-");
        // The machine's cache (the extracted PostgreSQL binaries) as ./stack of this checkout keeps it.
        String cache = System.getenv().getOrDefault("PLATFORM_CACHE_DIR", root.resolve(".stack/cache").toString());
        System.out.println("./stack with STACK_HOME=" + home + ", PLATFORM_CACHE_DIR=" + cache);
        try {
            Up first = up(root, home, cache);
            print("first up (new home: initdb, storage, class-data archives made at down)", first);
            stack(root, home, cache, "down");
            Up second = up(root, home, cache);
            print("second up (data and archives kept)", second);
            System.out.printf("%nidle for %d s...%n", idleSeconds);
            Thread.sleep(idleSeconds * 1000L);
            Map<String, long[]> memory = memory(second.pids());
            Map<PlatformService, double[]> alone = alone(second.pids());
            report(results, first, second, memory, alone);
        } finally {
            stack(root, home, cache, "down");
            FileTrees.delete(home);
        }
        results.write();
    }

    private static void report(Results results, Up first, Up second, Map<String, long[]> memory,
                               Map<PlatformService, double[]> alone) {
        System.out.printf("%n%-18s %9s %9s%n", "process", "RSS MB", "PSS MB");
        double rss = 0;
        double pss = 0;
        double largest = 0;
        String largestName = "";
        for (var entry : memory.entrySet()) {
            double rssMb = entry.getValue()[0] / 1024.0;
            double pssMb = entry.getValue()[1] / 1024.0;
            rss += rssMb;
            pss += pssMb;
            System.out.printf("%-18s %9.1f %9.1f%n", entry.getKey(), rssMb, pssMb);
            results.record("rss." + entry.getKey() + ".mb", rssMb, "MB", entry.getKey() + " idle RSS");
            results.record("pss." + entry.getKey() + ".mb", pssMb, "MB", entry.getKey() + " idle PSS");
            if (isService(entry.getKey()) && rssMb > largest) {
                largest = rssMb;
                largestName = entry.getKey();
            }
        }
        System.out.printf("%-18s %9.1f %9.1f%n", "whole platform", rss, pss);
        double slowest = second.readySeconds().values().stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
        double slowestAlone = alone.values().stream().mapToDouble(figures -> figures[0]).max().orElse(Double.NaN);
        String slowestAloneName = alone.entrySet().stream().filter(entry -> entry.getValue()[0] == slowestAlone)
                .map(entry -> entry.getKey().module()).findFirst().orElse("");
        results.headline("service.rss.maxMb", largest, "MB", "largest idle service RSS (" + largestName + ")");
        results.aim("service.rss.maxMb", "at most " + (int) AIM_SERVICE_RSS_MB + " MB", largest <= AIM_SERVICE_RSS_MB);
        results.headline("platform.pss.mb", pss, "MB", "whole platform idle memory (sum of PSS: a shared page once)");
        results.aim("platform.pss.mb", "at most " + (int) AIM_PLATFORM_MB + " MB", pss <= AIM_PLATFORM_MB);
        results.record("platform.rss.mb", rss, "MB", "whole platform idle RSS, summed (a shared page once per process)");
        results.headline("service.readyAlone.maxSeconds", slowestAlone, "s", "slowest service, process start to ready,"
                + " started alone with the platform up (" + slowestAloneName + "; the 3 s aim's figure)");
        results.aim("service.readyAlone.maxSeconds", "at most " + (int) AIM_READY_SECONDS + " s", slowestAlone <= AIM_READY_SECONDS);
        results.record("service.ready.maxSeconds", slowest, "s", "slowest service, process start to ready, all eight"
                + " started at once in ./stack up");
        results.headline("stack.up.seconds", second.seconds(), "s", "./stack up to ready, everything built");
        results.aim("stack.up.seconds", "at most " + (int) AIM_STACK_UP_SECONDS + " s", second.seconds() <= AIM_STACK_UP_SECONDS);
        results.record("service.readyCpu.totalSeconds", second.cpuAtReady().values().stream().mapToDouble(Double::doubleValue).sum(),
                "CPU-s", "the eight services' CPU seconds to readiness, in ./stack up (independent of the machine's load)");
        results.record("stack.firstUp.seconds", first.seconds(), "s", "./stack up on a new stack home (initdb, storage, no archives)");
        for (PlatformService service : PlatformService.values()) {
            results.record("ready." + service.module() + ".seconds", second.readySeconds().getOrDefault(service, Double.NaN), "s",
                    service.module() + " process start to ready");
            results.record("readyCpu." + service.module() + ".seconds", second.cpuAtReady().getOrDefault(service, Double.NaN),
                    "CPU-s", service.module() + " CPU seconds used by its readiness");
            double[] aloneFigures = alone.getOrDefault(service, new double[] {Double.NaN, Double.NaN});
            results.record("readyAlone." + service.module() + ".seconds", aloneFigures[0], "s",
                    service.module() + " process start to ready, started alone with the platform up");
            results.record("readyAloneCpu." + service.module() + ".seconds", aloneFigures[1], "CPU-s",
                    service.module() + " CPU seconds used by its readiness, started alone");
            results.record("firstReady." + service.module() + ".seconds", first.readySeconds().getOrDefault(service, Double.NaN),
                    "s", service.module() + " process start to ready, first up");
        }
        System.out.println();
        verdict("largest service RSS", largest, AIM_SERVICE_RSS_MB, "MB");
        verdict("whole platform (PSS)", pss, AIM_PLATFORM_MB, "MB");
        verdict("slowest service alone to ready", slowestAlone, AIM_READY_SECONDS, "s");
        System.out.printf("%-32s %8.1f s  (all eight at once in ./stack up; the aim's figure is the alone one)%n",
                "slowest service at once", slowest);
        verdict("./stack up", second.seconds(), AIM_STACK_UP_SECONDS, "s");
    }

    private static void verdict(String what, double value, double aim, String unit) {
        System.out.printf("%-32s %8.1f %s  aim %.0f %s: %s%n", what, value, unit, aim, unit, value <= aim ? "met" : "MISSED");
    }

    private static boolean isService(String name) {
        for (PlatformService service : PlatformService.values()) {
            if (service.module().equals(name)) {
                return true;
            }
        }
        return false;
    }

    private static void print(String title, Up up) {
        System.out.printf("%n%s: ./stack up %.1f s%n", title, up.seconds());
        up.readySeconds().forEach((service, seconds) -> System.out.printf(
                "  %-18s ready %.2f s after its process started, %.2f CPU-s by then%n",
                service.module(), seconds, up.cpuAtReady().getOrDefault(service, Double.NaN)));
    }

    /**
     * Runs {@code ./stack up} while polling every service's readiness endpoint; returns once it has
     * printed that the platform is ready, with the pids its supervisor wrote.
     */
    private static Up up(Path root, Path home, String cache) throws Exception {
        Map<PlatformService, Double> readyAt = new EnumMap<>(PlatformService.class);
        Map<PlatformService, Double> cpuAtReady = new EnumMap<>(PlatformService.class);
        Thread watcher = new Thread(() -> watch(home, readyAt, cpuAtReady), "footprint-ready-watch");
        watcher.setDaemon(true);
        long started = System.nanoTime();
        watcher.start();
        stack(root, home, cache, "up");
        double seconds = (System.nanoTime() - started) / 1e9;
        watcher.interrupt();
        watcher.join(5000);
        Map<String, Long> pids = new LinkedHashMap<>();
        try (var files = Files.list(home.resolve("run"))) {
            for (Path file : files.filter(f -> f.getFileName().toString().endsWith(".pid")).sorted().toList()) {
                pids.put(file.getFileName().toString().replace(".pid", ""), Long.parseLong(Files.readString(file).strip()));
            }
        }
        Map<PlatformService, Double> ready = new EnumMap<>(PlatformService.class);
        synchronized (readyAt) {
            readyAt.forEach((service, uptime) -> {
                Long pid = pids.get(service.module());
                if (pid != null) {
                    ready.put(service, uptime - ProcessMemory.startedAfterBoot(pid));
                }
            });
        }
        synchronized (readyAt) {
            return new Up(seconds, ready, new EnumMap<>(cpuAtReady), pids);
        }
    }

    /**
     * Polls every service's readiness every 50 ms until interrupted; notes when each first answers 200
     * (boot clock) and the CPU seconds its JVM (a child of the supervisor, {@code run/stack.pid}) had used by then.
     */
    private static void watch(Path home, Map<PlatformService, Double> readyAt, Map<PlatformService, Double> cpuAtReady) {
        while (!Thread.currentThread().isInterrupted()) {
            for (PlatformService service : PlatformService.values()) {
                synchronized (readyAt) {
                    if (readyAt.containsKey(service)) {
                        continue;
                    }
                }
                if (ready(service)) {
                    double now = ProcessMemory.uptime();
                    double cpu = cpuOf(home, service);
                    synchronized (readyAt) {
                        readyAt.put(service, now);
                        cpuAtReady.put(service, cpu);
                    }
                }
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private static double cpuOf(Path home, PlatformService service) {
        try {
            long supervisor = Long.parseLong(Files.readString(home.resolve("run/stack.pid")).strip());
            String jar = "/" + service.module() + "/target/quarkus-app/quarkus-run.jar";
            for (long child : ProcessMemory.children(supervisor)) {
                if (ProcessMemory.commandLine(child).contains(jar)) {
                    return ProcessMemory.cpuSeconds(child);
                }
            }
        } catch (IOException | RuntimeException unknown) {
            // no figure
        }
        return Double.NaN;
    }

    private static boolean ready(PlatformService service) {
        return ready(service.stackManagementPort());
    }

    private static boolean ready(int managementPort) {
        try {
            HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort
                    + "/q/health/ready")).timeout(Duration.ofSeconds(1)).GET().build();
            return HTTP.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Each service started alone, as a pod on a node of its own starts with its dependencies already up: one
     * at a time, a second JVM with the command line and environment of the service's instance in the idle
     * platform (its class-data archive included) on ports of its own, from its process start to its readiness
     * endpoint's first 200 (polled every 50 ms), and the CPU seconds it used by then; then stopped (SIGTERM)
     * before the next starts. Returns {seconds, CPU seconds} per service.
     */
    static Map<PlatformService, double[]> alone(Map<String, Long> pids) throws Exception {
        Map<PlatformService, double[]> alone = new EnumMap<>(PlatformService.class);
        System.out.println();
        for (PlatformService service : PlatformService.values()) {
            Long pid = pids.get(service.module());
            if (pid == null) {
                continue;
            }
            int managementPort = freePort();
            // Its archive when the instance maps one; never one made at exit (the instance's own, written at ./stack down).
            List<String> command = ProcessMemory.arguments(pid).stream()
                    .filter(argument -> !argument.startsWith("-XX:ArchiveClassesAtExit=")).toList();
            ProcessBuilder builder = new ProcessBuilder(command)
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
            builder.environment().clear();
            builder.environment().putAll(ProcessMemory.environment(pid));
            builder.environment().put("QUARKUS_HTTP_PORT", String.valueOf(freePort()));
            builder.environment().put("QUARKUS_MANAGEMENT_PORT", String.valueOf(managementPort));
            Process process = builder.start();
            try {
                double seconds = Double.NaN;
                double cpu = Double.NaN;
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
                while (process.isAlive() && System.nanoTime() < deadline) {
                    if (ready(managementPort)) {
                        double now = ProcessMemory.uptime();
                        cpu = ProcessMemory.cpuSeconds(process.pid());
                        seconds = now - ProcessMemory.startedAfterBoot(process.pid());
                        break;
                    }
                    Thread.sleep(50);
                }
                alone.put(service, new double[] {seconds, cpu});
                System.out.printf("  %-18s alone: ready %.2f s after its process started, %.2f CPU-s by then%n",
                        service.module(), seconds, cpu);
            } finally {
                process.destroy();
                if (!process.waitFor(60, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            }
        }
        return alone;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** Each process's idle {RSS, PSS} in kB; PostgreSQL's is its postmaster's and every process under it. */
    static Map<String, long[]> memory(Map<String, Long> pids) {
        Map<String, long[]> memory = new LinkedHashMap<>();
        pids.forEach((name, pid) -> {
            List<Long> all = new ArrayList<>(List.of(pid));
            if (name.equals("postgres")) {
                all.addAll(ProcessMemory.children(pid));
            }
            long rss = 0;
            long pss = 0;
            for (long each : all) {
                rss += ProcessMemory.rssKb(each).orElse(0);
                pss += ProcessMemory.pssKb(each).orElse(0);
            }
            memory.put(name.equals("stack") ? "launcher" : name, new long[] {rss, pss});
        });
        return memory;
    }

    private static void stack(Path root, Path home, String cache, String command) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(root.resolve("stack").toString(), command).directory(root.toFile())
                .inheritIO();
        builder.environment().put("STACK_HOME", home.toString());
        builder.environment().put("PLATFORM_CACHE_DIR", cache);
        Process process = builder.start();
        if (!process.waitFor(10, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new IllegalStateException("./stack " + command + " did not finish in 10 minutes");
        }
        if (process.exitValue() != 0) {
            throw new IllegalStateException("./stack " + command + " exited with " + process.exitValue());
        }
    }

    private static void requireFreePorts() {
        List<Integer> ports = new ArrayList<>();
        for (PlatformService service : PlatformService.values()) {
            ports.add(service.stackPort());
            ports.add(service.stackManagementPort());
        }
        ports.addAll(List.of(15432, 19092, 19093, 12525, 12143));
        for (int port : ports) {
            try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                socket.setReuseAddress(true);
            } catch (IOException taken) {
                throw new IllegalStateException("port " + port + " is taken: ./stack's fixed ports must be free (another"
                        + " ./stack running? ./stack down)");
            }
        }
    }

    private FootprintBench() {
    }
}
