package com.telemed.bench.gateway;

import com.telemed.bench.support.BenchPlatform;
import com.telemed.bench.support.CpuBusy;
import com.telemed.bench.support.DirectCalls;
import com.telemed.bench.support.LoadRun;
import com.telemed.bench.support.Machine;
import com.telemed.bench.support.Nginx;
import com.telemed.bench.support.ProcessCpu;
import com.telemed.bench.support.Results;
import com.telemed.bench.support.Taskset;
import com.telemed.bench.support.ThreadCpu;
import com.telemed.bench.support.Wrk;
import com.telemed.testkit.infra.Infrastructure;
import com.telemed.testkit.platform.Platform;
import com.telemed.testkit.platform.PlatformService;
import com.telemed.testkit.stack.DemoData;
import java.io.FileReader;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Supplier;

/**
 * Issue 3, what the gateway costs: the same authenticated {@code GET /v1/drugs}, through the gateway
 * and straight to catalogue-service (with the partner header the gateway would add), at the same
 * concurrency, alternated so both see the same machine. Load from wrk when installed (it leaves the
 * CPU to what is measured), else from a JVM client. Loopback only; bounded in time.
 *
 * <p>Two setups, one run: first every process shares both cores, so each millisecond of gateway
 * CPU is taken from the service; then the gateway (with the load generator) gets CPU 0 and the
 * service with PostgreSQL CPU 1, as in a deployment where the gateway is scaled on its own. The
 * gateway's key lookups still run in PostgreSQL on the service's CPU. In both, nginx as a plain
 * {@code proxy_pass} in front of the same service (issue 23; on the gateway's CPU when isolated): the
 * cost of a proxy that authenticates nothing, beside the gateway's. Aim: the gateway within 85 % of
 * nginx's throughput in the isolated setup.
 *
 * <p>Run: bench/gateway-overhead.sh [concurrency=16] [seconds per round=10]
 */
public final class GatewayOverheadBench {

    private static final Duration WARM_UP_ROUND = Duration.ofSeconds(20);
    private static final int WARM_UP_ROUNDS_AT_MOST = 15;
    private static final double JIT_SETTLED = 0.03;
    /**
     * Rounds per setup; the aims are judged on the median round. Five since issue 23's runs of three
     * rounds spread from 60 to 102 % of nginx within one run (this machine's speed drifts), so that
     * one slow or fast round moved the median.
     */
    private static final int ROUNDS = 5;

    /** A load round, printed as it ends: {req/s, p50 ms, p99 ms}. */
    interface Load {
        double[] run(String name, URI uri, String[] headers, int concurrency, Duration duration) throws Exception;
    }

    private GatewayOverheadBench() {
    }

    public static void main(String[] args) throws Exception {
        int concurrency = args.length > 0 ? Integer.parseInt(args[0]) : 16;
        Duration round = Duration.ofSeconds(args.length > 1 ? Long.parseLong(args[1]) : 10);
        Results results = Results.open("gateway-overhead", args)
                .parameter("concurrency", concurrency).parameter("roundSeconds", round);
        boolean wrk = Wrk.available();
        results.parameter("loadGenerator", wrk ? "wrk" : "JVM client");
        Load load = wrk
                ? (name, uri, headers, c, d) -> print(Wrk.run(name, uri, headers, c, d))
                : (name, uri, headers, c, d) -> print(LoadRun.run(name, uri, headers, c, d));
        try (BenchPlatform platform = BenchPlatform.start()) {
            Path demo = Files.createTempDirectory("bench-demo-").resolve("demo.properties");
            DemoData.seed(platform.url(PlatformService.GATEWAY), platform.opsKey(), demo);
            Properties credentials = new Properties();
            try (var in = new FileReader(demo.toFile())) {
                credentials.load(in);
            }
            URI viaGateway = platform.url(PlatformService.GATEWAY).resolve("/v1/drugs");
            URI direct = platform.url(PlatformService.CATALOGUE).resolve("/v1/drugs");
            String[] gatewayHeaders = {"x-api-key", credentials.getProperty("apiKey")};
            String partnerId = credentials.getProperty("partnerId");
            // Signed as each round starts: a service proof is fresh for 60 s.
            Supplier<String[]> directHeaders = () -> DirectCalls.headers("GET", direct, partnerId);

            System.out.printf("GET /v1/drugs, %d concurrent clients, rounds of %d s, loopback, %d cores, load from %s%n",
                    concurrency, round.toSeconds(), Machine.cores(),
                    wrk ? "wrk" : "a JVM client (install wrk for figures less disturbed by the load generator)");
            warmUp(platform, load, viaGateway, gatewayHeaders, direct, directHeaders, concurrency);
            try (Nginx nginx = startNginx(platform.url(PlatformService.CATALOGUE))) {
                URI viaNginx = nginx == null ? null : nginx.url().resolve("/v1/drugs");
                if (nginx != null) {
                    load.run("  nginx", viaNginx, directHeaders.get(), concurrency, Duration.ofSeconds(20));
                }
                results.parameter("nginx", nginx == null ? "not installed" : "proxy_pass, 1 worker, upstream keepalive 64");
                System.out.printf("%n== shared: every process on every core (the gateway's CPU is taken from the service's)%n");
                compare(results, "shared", load, viaGateway, gatewayHeaders, direct, directHeaders, viaNginx, concurrency, round);
                if (isolate(platform.platform(), platform.infrastructure(), nginx)) {
                    System.out.printf("%n== isolated: gateway (and nginx) with the load generator on CPU 0; catalogue-service and"
                            + " PostgreSQL (the gateway's key lookups included) on CPU 1, as when the gateway is scaled on its own%n");
                    // Every thread has just moved to one CPU: one round each way to settle, printed, not kept.
                    load.run("  settle: gateway", viaGateway, gatewayHeaders, concurrency, round);
                    load.run("  settle: direct", direct, directHeaders.get(), concurrency, round);
                    if (viaNginx != null) {
                        load.run("  settle: nginx", viaNginx, directHeaders.get(), concurrency, round);
                    }
                    compare(results, "isolated", load, viaGateway, gatewayHeaders, direct, directHeaders, viaNginx, concurrency, round,
                            processCpu(platform, nginx));
                }
            }
            System.out.println("aims: at least 70 % of direct throughput and 85 % of nginx's in the isolated setup;"
                    + " under 1 ms added at p50 with one client");
        }
        results.write();
    }

    /**
     * Calls through the gateway and direct, alternated, until the JIT has compiled both paths: rounds of
     * {@link #WARM_UP_ROUND} each way until the C1 and C2 compiler threads of the gateway and
     * catalogue-service use under {@link #JIT_SETTLED} of their CPU in a pair of rounds, at most
     * {@link #WARM_UP_ROUNDS_AT_MOST} pairs (issue 23: after a fixed 40 s the shared rounds still rose
     * round by round, 48, 61, 71 % of nginx). The rounds' figures are printed, never kept.
     */
    private static void warmUp(BenchPlatform platform, Load load, URI viaGateway, String[] gatewayHeaders, URI direct,
                               Supplier<String[]> directHeaders, int concurrency) throws Exception {
        System.out.printf("warm-up (JIT): rounds of %d s each way until the JIT compilers use under %.0f %% of the"
                + " gateway's and catalogue-service's CPU%n", WARM_UP_ROUND.toSeconds(), 100 * JIT_SETTLED);
        for (int round = 1; ; round++) {
            List<ThreadCpu> jvms = List.of(ThreadCpu.start(platform.pid(PlatformService.GATEWAY)),
                    ThreadCpu.start(platform.pid(PlatformService.CATALOGUE)));
            load.run("  gateway (round " + round + ")", viaGateway, gatewayHeaders, concurrency, WARM_UP_ROUND);
            load.run("  direct (round " + round + ")", direct, directHeaders.get(), concurrency, WARM_UP_ROUND);
            double jit = ThreadCpu.jitShare(jvms);
            System.out.printf("  JIT %.0f %% of the CPU%n", 100 * jit);
            if (jit < JIT_SETTLED) {
                return;
            }
            if (round == WARM_UP_ROUNDS_AT_MOST) {
                System.out.println("  the JIT did not settle: the figures below include its work");
                return;
            }
        }
    }

    /**
     * {@link #ROUNDS} rounds at {@code concurrency}, the three runs of each in a rotating order, each round with its
     * ratios, and their medians; then one client alone.
     * Kept under {@code <setup>.}: the isolated setup's median ratio and one client's added p50 are the headlines
     * (the aims are judged there: issue 23).
     */
    static void compare(Results results, String setup, Load load, URI viaGateway, String[] gatewayHeaders, URI direct,
                        Supplier<String[]> directHeaders, URI viaNginx, int concurrency, Duration round) throws Exception {
        compare(results, setup, load, viaGateway, gatewayHeaders, direct, directHeaders, viaNginx, concurrency, round, null);
    }

    /**
     * As above; with {@code cpu}, each round of the three also prints how busy each CPU was and each
     * process's CPU per call (issue 23: which core limits the isolated gateway's rounds).
     */
    static void compare(Results results, String setup, Load load, URI viaGateway, String[] gatewayHeaders, URI direct,
                        Supplier<String[]> directHeaders, URI viaNginx, int concurrency, Duration round, ProcessCpu cpu)
            throws Exception {
        Load accounted = cpu == null ? load : (name, uri, headers, c, d) -> {
            CpuBusy.Snapshot cores = CpuBusy.snapshot();
            ProcessCpu.Snapshot before = cpu.snapshot();
            double[] result = load.run(name, uri, headers, c, d);
            ProcessCpu.Snapshot after = cpu.snapshot();
            System.out.println("    " + CpuBusy.describe(cores, CpuBusy.snapshot()) + "; "
                    + cpu.describe(before, after, (int) Math.max(1, Math.round(result[0] * d.toMillis() / 1000.0))));
            return result;
        };
        boolean judged = setup.equals("isolated");
        String where = judged ? "isolated: " : "shared cores: ";
        List<Double> gateways = new ArrayList<>();
        List<Double> directs = new ArrayList<>();
        List<Double> ratios = new ArrayList<>();
        List<Double> nginxes = new ArrayList<>();
        List<Double> nginxRatios = new ArrayList<>();
        for (int i = 1; i <= ROUNDS; i++) {
            // Each round runs the three in another order (gateway, direct, nginx; then direct, nginx,
            // gateway; ...), so none is always the one measured first, or right after the same other.
            Map<String, double[]> measured = new HashMap<>();
            List<String> legs = new ArrayList<>(viaNginx == null ? List.of("gateway", "direct") : List.of("gateway", "direct", "nginx"));
            Collections.rotate(legs, -(i - 1));
            for (String leg : legs) {
                measured.put(leg, switch (leg) {
                    case "gateway" -> accounted.run("through gateway (round " + i + ")", viaGateway, gatewayHeaders, concurrency, round);
                    case "direct" -> accounted.run("direct to service (round " + i + ")", direct, directHeaders.get(), concurrency, round);
                    default -> accounted.run("through nginx (round " + i + ")", viaNginx, directHeaders.get(), concurrency, round);
                });
            }
            double[] gateway = measured.get("gateway");
            double[] service = measured.get("direct");
            if (viaNginx != null) {
                double[] nginx = measured.get("nginx");
                System.out.printf("  round %d: gateway throughput = %.0f %% of nginx's%n", i, 100.0 * gateway[0] / nginx[0]);
                String label = where + "round " + i + ", " + concurrency + " clients";
                results.load(setup + ".round" + i + ".nginx", label + ", through nginx (proxy_pass)", nginx[0], "req/s", nginx[1],
                        nginx[2], Results.Role.DETAIL);
                results.record(setup + ".round" + i + ".ratioToNginx", 100.0 * gateway[0] / nginx[0], "%",
                        label + ", gateway throughput / nginx's");
                nginxes.add(nginx[0]);
                nginxRatios.add(100.0 * gateway[0] / nginx[0]);
            }
            System.out.printf("  round %d: gateway throughput = %.0f %% of direct; added latency p50 %.2f ms, p99 %.2f ms%n",
                    i, 100.0 * gateway[0] / service[0], gateway[1] - service[1], gateway[2] - service[2]);
            String key = setup + ".round" + i;
            String label = where + "round " + i + ", " + concurrency + " clients";
            results.load(key + ".gateway", label + ", through the gateway", gateway[0], "req/s", gateway[1], gateway[2],
                    Results.Role.DETAIL);
            results.load(key + ".direct", label + ", direct to catalogue-service", service[0], "req/s", service[1], service[2],
                    Results.Role.DETAIL);
            results.record(key + ".ratioToDirect", 100.0 * gateway[0] / service[0], "%", label + ", gateway throughput / direct");
            results.record(key + ".addedP50Ms", gateway[1] - service[1], "ms", label + ", added latency p50");
            results.record(key + ".addedP99Ms", gateway[2] - service[2], "ms", label + ", added latency p99");
            gateways.add(gateway[0]);
            directs.add(service[0]);
            ratios.add(100.0 * gateway[0] / service[0]);
        }
        System.out.printf("  median of the %d rounds: gateway %.0f req/s, direct %.0f req/s; gateway throughput = %.0f %% of direct%n",
                ROUNDS, median(gateways), median(directs), median(ratios));
        results.add(judged ? Results.Role.HEADLINE : Results.Role.DETAIL, setup + ".gateway.perSecond", median(gateways), "req/s",
                where + "through the gateway, " + concurrency + " clients, median round");
        results.record(setup + ".direct.perSecond", median(directs), "req/s", where + "direct to catalogue-service, median round");
        results.add(judged ? Results.Role.CEILING_RATIO : Results.Role.DETAIL, setup + ".ratioToDirect", median(ratios), "%",
                where + "gateway / direct throughput, " + concurrency + " clients, median round");
        if (!nginxes.isEmpty()) {
            System.out.printf("  median: nginx %.0f req/s; gateway throughput = %.0f %% of nginx's%n", median(nginxes), median(nginxRatios));
            results.record(setup + ".nginx.perSecond", median(nginxes), "req/s", where + "through nginx (proxy_pass), median round");
            results.add(judged ? Results.Role.CEILING_RATIO : Results.Role.DETAIL, setup + ".ratioToNginx", median(nginxRatios), "%",
                    where + "gateway / nginx throughput, " + concurrency + " clients, median round");
        }
        // Saturated, latency is mostly queueing; one client alone shows what the hop itself adds.
        double[] alone = load.run("through gateway, 1 client", viaGateway, gatewayHeaders, 1, round);
        double[] aloneDirect = load.run("direct to service, 1 client", direct, directHeaders.get(), 1, round);
        System.out.printf("  unloaded: added latency p50 %.2f ms, p99 %.2f ms%n", alone[1] - aloneDirect[1], alone[2] - aloneDirect[2]);
        results.load(setup + ".oneClient.gateway", where + "1 client, through the gateway", alone[0], "req/s", alone[1], alone[2],
                Results.Role.DETAIL);
        results.load(setup + ".oneClient.direct", where + "1 client, direct to catalogue-service", aloneDirect[0], "req/s",
                aloneDirect[1], aloneDirect[2], Results.Role.DETAIL);
        results.add(judged ? Results.Role.HEADLINE : Results.Role.DETAIL, setup + ".oneClient.addedP50Ms",
                alone[1] - aloneDirect[1], "ms", where + "latency the gateway adds at p50, 1 client");
        results.record(setup + ".oneClient.addedP99Ms", alone[2] - aloneDirect[2], "ms", where + "latency the gateway adds at p99, 1 client");
    }

    /** The processes of the isolated rounds, for their CPU per call; this JVM's figure includes wrk (its reaped child). */
    private static ProcessCpu processCpu(BenchPlatform platform, Nginx nginx) {
        Map<String, Long> pids = new LinkedHashMap<>();
        pids.put("gateway", platform.pid(PlatformService.GATEWAY));
        pids.put("catalogue-service", platform.pid(PlatformService.CATALOGUE));
        if (nginx != null) {
            List<Long> nginxPids = nginx.pids();
            for (int i = 0; i < nginxPids.size(); i++) {
                pids.put("nginx " + (i + 1), nginxPids.get(i));
            }
        }
        return new ProcessCpu(pids, platform.infrastructure().postgres().pid(), "bench JVM (Kafka, wrk)", true);
    }

    /** nginx in front of the same service, or null (said why) when it is not installed or does not start. */
    private static Nginx startNginx(URI service) {
        try {
            return Nginx.proxyTo(service);
        } catch (Exception e) {
            System.out.println("(no nginx comparison: " + e.getMessage() + ")");
            return null;
        }
    }

    private static double median(List<Double> values) {
        return values.stream().sorted().toList().get(values.size() / 2);
    }

    /**
     * Pins the gateway and this JVM (so the load generator it starts) to CPU 0, and catalogue-service,
     * the postmaster and its backends (new ones inherit the postmaster's CPU) to CPU 1. False, with
     * the reason, when the machine has one CPU or no {@code taskset}.
     */
    private static boolean isolate(Platform platform, Infrastructure infrastructure, Nginx nginx) throws Exception {
        long postmaster = infrastructure.postgres().pid();
        if (Machine.cores() < 2 || postmaster < 0) {
            System.out.println("(isolated run skipped: needs 2 CPUs and the kit's own PostgreSQL)");
            return false;
        }
        List<Long> serviceSide = new ArrayList<>(List.of(platform.pid(PlatformService.CATALOGUE), postmaster));
        ProcessHandle.of(postmaster).ifPresent(p -> p.descendants().forEach(child -> serviceSide.add(child.pid())));
        try {
            List<Long> proxySide = new ArrayList<>(List.of(platform.pid(PlatformService.GATEWAY), ProcessHandle.current().pid()));
            if (nginx != null) {
                proxySide.addAll(nginx.pids());
            }
            for (long pid : proxySide) {
                Taskset.pin(pid, 0);
            }
            for (long pid : serviceSide) {
                Taskset.pin(pid, 1);
            }
            return true;
        } catch (IOException e) {
            System.out.println("(isolated run skipped: " + e.getMessage() + ")");
            return false;
        }
    }

    private static double[] print(Wrk.Result result) {
        System.out.println(result.line());
        return new double[] {result.perSecond(), result.p50Ms(), result.p99Ms()};
    }

    private static double[] print(LoadRun.Result result) {
        System.out.println(result.line());
        return new double[] {result.perSecond(), result.p50Ms(), result.p99Ms()};
    }
}
