import com.telemed.testkit.infra.Infrastructure;
import com.telemed.testkit.platform.Platform;
import com.telemed.testkit.platform.PlatformOptions;
import com.telemed.testkit.platform.PlatformService;
import com.telemed.testkit.stack.DemoData;
import java.io.FileReader;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;

/**
 * What the gateway costs: the same authenticated {@code GET /v1/drugs}, through the gateway and
 * straight to catalogue-service (with the partner header the gateway would add), at the same
 * concurrency, alternated so both see the same machine. Loopback only; bounded in time.
 *
 * Run: bench/gateway-overhead.sh [concurrency] [seconds per round]
 */
public final class GatewayOverheadBench {

    public static void main(String[] args) throws Exception {
        int concurrency = args.length > 0 ? Integer.parseInt(args[0]) : 16;
        Duration round = Duration.ofSeconds(args.length > 1 ? Long.parseLong(args[1]) : 10);
        Path root = Path.of("").toAbsolutePath();
        String opsKey = "ops_bench_" + System.nanoTime();
        try (Infrastructure infrastructure = Infrastructure.startEphemeral();
             Platform platform = Platform.start(infrastructure, new PlatformOptions(root,
                     Files.createTempDirectory("bench-logs-"), PlatformOptions.randomPorts(),
                     PlatformOptions.DEFAULT_JVM_OPTIONS, Map.of("OPS_API_KEY", opsKey), Duration.ofSeconds(180)))) {
            Path demo = Files.createTempDirectory("bench-demo-").resolve("demo.properties");
            DemoData.seed(platform.url(PlatformService.GATEWAY), opsKey, demo);
            Properties credentials = new Properties();
            try (var in = new FileReader(demo.toFile())) {
                credentials.load(in);
            }
            URI viaGateway = platform.url(PlatformService.GATEWAY).resolve("/v1/drugs");
            URI direct = platform.url(PlatformService.CATALOGUE).resolve("/v1/drugs");
            String[] gatewayHeaders = {"x-api-key", credentials.getProperty("apiKey")};
            String[] directHeaders = {"X-Partner-Id", credentials.getProperty("partnerId")};

            System.out.printf("GET /v1/drugs, %d concurrent clients, rounds of %d s, loopback, %d cores%n",
                    concurrency, round.toSeconds(), Runtime.getRuntime().availableProcessors());
            LoadRun.run("warm-up gateway", viaGateway, gatewayHeaders, concurrency, Duration.ofSeconds(15));
            LoadRun.run("warm-up direct", direct, directHeaders, concurrency, Duration.ofSeconds(15));
            LoadRun.Result gateway = null;
            LoadRun.Result service = null;
            for (int i = 1; i <= 2; i++) {
                LoadRun.Result g = LoadRun.run("through gateway (round " + i + ")", viaGateway, gatewayHeaders, concurrency, round);
                LoadRun.Result d = LoadRun.run("direct to service (round " + i + ")", direct, directHeaders, concurrency, round);
                System.out.println(g.line());
                System.out.println(d.line());
                gateway = g;
                service = d;
            }
            System.out.printf("%nlast round: gateway throughput = %.0f %% of direct; added latency p50 %.2f ms, p99 %.2f ms%n",
                    100.0 * gateway.perSecond() / service.perSecond(),
                    gateway.p50Ms() - service.p50Ms(), gateway.p99Ms() - service.p99Ms());
            // Saturated, latency is mostly queueing; one client alone shows what the hop itself adds.
            LoadRun.Result alone = LoadRun.run("through gateway, 1 client", viaGateway, gatewayHeaders, 1, round);
            LoadRun.Result aloneDirect = LoadRun.run("direct to service, 1 client", direct, directHeaders, 1, round);
            System.out.println(alone.line());
            System.out.println(aloneDirect.line());
            System.out.printf("unloaded: added latency p50 %.2f ms, p99 %.2f ms%n",
                    alone.p50Ms() - aloneDirect.p50Ms(), alone.p99Ms() - aloneDirect.p99Ms());
            System.out.println("aim: at least 70 % of direct throughput, under 1 ms added at p50");
        }
    }
}
