import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.telemed.testkit.infra.Infrastructure;
import com.telemed.testkit.infra.PostgresServer;
import com.telemed.testkit.platform.Platform;
import com.telemed.testkit.platform.PlatformOptions;
import com.telemed.testkit.platform.PlatformService;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Issue 5, requests-service:
 *
 * <ol>
 * <li>{@code POST /v1/requests} (one item, existing member) through the gateway with 16 concurrent
 *     clients, beside the ceiling of the database itself measured in the same run: pgbench, one-row
 *     INSERT transactions, same concurrency, same PostgreSQL server, into a scratch table of a scratch
 *     database; and the ratio of the two. Direct to requests-service too, for context.</li>
 * <li>Page 1 of {@code GET /v1/requests?status=pending} with 1,000,000 requests in all and 100,000 for
 *     the partner under test (aim: p95 under 50 ms), through the gateway and direct; the unfiltered list
 *     and {@code status=approved} for context; EXPLAIN (ANALYZE, BUFFERS) of the SQL that
 *     {@code RequestQueries.list} runs (copied below).</li>
 * </ol>
 *
 * <p>Starts its own platform on random loopback ports (as MembersListBench), creates a partner, a drug
 * and a member through the APIs, loads requests and line items with set-based SQL, measures the list
 * first (on exactly the loaded data), then the POST. Load from wrk ({@code -s bench/post-json.lua})
 * when installed, else from a JVM client.
 *
 * <p>Run: bench/requests.sh [calls per list query=200] [warm-up calls=50] [seconds cap per list query and
 * target=10] [seconds per POST round=10]
 */
public final class RequestsBench {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();

    private static final int TOTAL = 1_000_000;
    private static final int OTHER_PARTNERS = 99;
    private static final int CONCURRENCY = 16;
    private static final String DRUG_ID = "bench-semaglutide";

    // RequestQueries.list, copied for EXPLAIN. Without a status: count(*) and a page of requests by
    // (partner_id, created_at DESC, id DESC). With a status (byStatus): two disjoint index ranges.
    private static final String WHERE = " FROM requests r WHERE r.partner_id = ?";
    private static final String PAGE = " ORDER BY r.created_at DESC, r.id DESC FETCH FIRST 20 ROWS ONLY";
    private static final String ITEMS = " FROM line_items li WHERE li.partner_id = ? AND li.status = ?";
    private static final String ITEMLESS = " FROM requests r WHERE r.partner_id = ? AND r.item_count = 0 AND r.status = ?";
    private static final String STATUS_COUNT = "SELECT (SELECT count(*)" + ITEMS + ") + (SELECT count(*)" + ITEMLESS + ")";
    private static final String STATUS_PAGE = "SELECT id FROM ((SELECT li.request_id AS id, li.request_created_at AS created_at" + ITEMS
            + " ORDER BY li.request_created_at DESC, li.request_id DESC LIMIT 20)"
            + " UNION ALL (SELECT r.id, r.created_at" + ITEMLESS + " ORDER BY r.created_at DESC, r.id DESC LIMIT 20))"
            + " AS matching ORDER BY created_at DESC, id DESC LIMIT 20 OFFSET 0";

    record Load(String name, double perSecond, double p50Ms, double p99Ms, long errors) {
        String line() {
            return String.format("%-40s %9.0f /s   p50 %7.2f ms   p99 %7.2f ms   (%d errors or non-2xx)",
                    name, perSecond, p50Ms, p99Ms, errors);
        }
    }

    public static void main(String[] args) throws Exception {
        int calls = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        int warmUp = args.length > 1 ? Integer.parseInt(args[1]) : 50;
        Duration cap = Duration.ofSeconds(args.length > 2 ? Long.parseLong(args[2]) : 10);
        Duration round = Duration.ofSeconds(args.length > 3 ? Long.parseLong(args[3]) : 10);
        Path root = Path.of("").toAbsolutePath();
        String opsKey = "ops_bench_" + System.nanoTime();
        long began = System.nanoTime();
        try (Infrastructure infrastructure = Infrastructure.startEphemeral();
             Platform platform = Platform.start(infrastructure, new PlatformOptions(root,
                     Files.createTempDirectory("bench-logs-"), PlatformOptions.randomPorts(),
                     PlatformOptions.DEFAULT_JVM_OPTIONS, Map.of("OPS_API_KEY", opsKey), Duration.ofSeconds(180)))) {
            System.out.printf("platform up in %.0f s%n", (System.nanoTime() - began) / 1e9);
            URI gateway = platform.url(PlatformService.GATEWAY);
            URI requests = platform.url(PlatformService.REQUESTS);
            JsonNode partner = send("POST", gateway.resolve("/ops/v1/partners"), "{\"name\":\"Bench Health\"}", 201,
                    "x-ops-key", opsKey);
            String partnerId = partner.path("partner").path("id").asText();
            String apiKey = partner.path("apiKey").asText();
            send("PUT", gateway.resolve("/ops/v1/drugs/" + DRUG_ID), """
                    {"name": "Semaglutide (bench)", "classification": "non-controlled",
                     "skus": [{"label": "2.5 mg/mL vial", "packageSize": 2,
                               "concentration": {"value": 2.5, "activeUnit": "mg", "baseUnit": "mL"}, "active": true}],
                     "pharmacy": {"id": "sandbox-pharmacy", "method": "integration_a"}}""", 200, "x-ops-key", opsKey);
            String memberId = send("POST", gateway.resolve("/v1/members"), """
                    {"firstName": "Ada", "lastName": "Bench", "email": "ada.bench@example.com",
                     "dateOfBirth": "1980-02-03", "state": "CA",
                     "address": {"street1": "1 Main St", "city": "Springfield", "state": "CA", "zipCode": "90001"}}""",
                    201, "x-api-key", apiKey).path("member").path("id").asText();
            String body = "{\"memberId\": \"" + memberId + "\", \"caseNotes\": \"bench\", \"items\": [{\"drugId\": \""
                    + DRUG_ID + "\"}]}";
            // One call first: a broken create fails here, not as a column of errors in the load figures.
            send("POST", gateway.resolve("/v1/requests"), body, 201, "x-api-key", apiKey);

            PostgresServer postgres = infrastructure.postgres();
            try (Connection db = DriverManager.getConnection(postgres.jdbcUrl("requests"), postgres.username(), postgres.password())) {
                load(db, partnerId);
                listBench(gateway, requests, partnerId, apiKey, calls, warmUp, cap);
                explain(db, partnerId);
            }
            postBench(root, postgres, gateway, requests, partnerId, apiKey, body, round);
        }
        System.out.printf("%nbenchmark done in %.0f s%n", (System.nanoTime() - began) / 1e9);
    }

    private static JsonNode send(String method, URI uri, String body, int expected, String header, String value) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(15)).header(header, value)
                .header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(body)).build();
        HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != expected) {
            throw new IllegalStateException(method + " " + uri.getPath() + " answered " + response.statusCode() + " " + response.body());
        }
        return JSON.readTree(response.body());
    }

    // ------------------------------------------------------------------ data

    /**
     * 1,000,000 requests and their line item in one statement (INSERT ... RETURNING feeding the line
     * items): a multiplicative hash of the series number picks the partner (1 in 10 the partner under
     * test, else one of 99 others), others the status (60 % pending, 25 % approved, 10 % denied, 5 %
     * cancelled; the item's status the same) and the creation time (over the last two years), so every
     * attribute is independent of the partner. Non-constraint indexes are dropped and recreated from
     * their own definitions; the line items' foreign key trigger is skipped for the load
     * (session_replication_role), the keys being right by construction.
     */
    static void load(Connection db, String partnerId) throws Exception {
        long t0 = System.nanoTime();
        try (Statement st = db.createStatement()) {
            st.execute("SET maintenance_work_mem = '256MB'");
            List<String> indexes = new ArrayList<>();
            List<String> names = new ArrayList<>();
            try (ResultSet rs = st.executeQuery("SELECT indexname, indexdef FROM pg_indexes"
                    + " WHERE tablename IN ('requests', 'line_items') AND indexname NOT IN (SELECT conname FROM pg_constraint"
                    + " WHERE conrelid IN ('requests'::regclass, 'line_items'::regclass))")) {
                while (rs.next()) {
                    names.add(rs.getString(1));
                    indexes.add(rs.getString(2));
                }
            }
            for (String name : names) {
                st.execute("DROP INDEX " + name);
            }
            st.execute("SET session_replication_role = replica");
            String sql = """
                    WITH s AS (
                      SELECT i,
                             (i::bigint * 2654435761) %% 4294967296 AS h,
                             (i::bigint * 40503 + 12345) %% 1000003 AS g,
                             (i::bigint * 69069 + 1) %% 63072001 AS t
                      FROM generate_series(1, %d) AS i
                    ), n AS (
                      SELECT i, g,
                             CASE WHEN h %% 10 = 0 THEN ? ELSE 'bench-other-' || lpad((h %% %d)::text, 2, '0') END AS partner,
                             CASE WHEN g %% 100 < 60 THEN 'pending' WHEN g %% 100 < 85 THEN 'approved'
                                  WHEN g %% 100 < 95 THEN 'denied' ELSE 'cancelled' END AS status,
                             now() - t * interval '1 second' AS at
                      FROM s
                    ), r AS (
                      INSERT INTO requests (id, partner_id, member_id, member_name, member_email, member_dob, member_state,
                                            status, consultation_open, case_notes, provider_id, item_count, created_at, updated_at)
                      SELECT md5('bench-request-' || i)::uuid, partner, gen_random_uuid(),
                             'Member ' || i, 'member.' || i || '@example.com',
                             to_char(date '1945-01-01' + (g %% 25000)::int, 'YYYY-MM-DD'),
                             (ARRAY['CA','NY','TX','FL','WA','IL','PA','OH','GA','NC'])[1 + (g %% 10)],
                             status, false, 'bench', 'provider-local', 1, at, at
                      FROM n
                      RETURNING id, partner_id, status, created_at
                    )
                    INSERT INTO line_items (id, request_id, partner_id, position, request_created_at, drug_id, drug_name,
                                            status, pharmacy_id, pharmacy_method, pharmacy_sent, pharmacy_sent_at,
                                            created_at, updated_at)
                    SELECT md5('bench-item-' || id)::uuid, id, partner_id, 0, created_at,
                           (ARRAY['semaglutide','tirzepatide','finasteride','sildenafil'])[1 + abs(hashtext(id::text) %% 4)],
                           (ARRAY['Semaglutide','Tirzepatide','Finasteride','Sildenafil'])[1 + abs(hashtext(id::text) %% 4)],
                           status, 'sandbox-pharmacy', 'integration_a', status = 'approved',
                           CASE WHEN status = 'approved' THEN created_at + interval '1 day' END,
                           created_at, created_at
                    FROM r
                    """.formatted(TOTAL, OTHER_PARTNERS);
            try (PreparedStatement insert = db.prepareStatement(sql)) {
                insert.setString(1, partnerId);
                insert.executeUpdate();
            }
            st.execute("RESET session_replication_role");
            long inserted = System.nanoTime();
            for (String index : indexes) {
                st.execute(index);
            }
            long indexed = System.nanoTime();
            // VACUUM too: the visibility map of a long-lived table, and no autovacuum run mid-benchmark.
            st.execute("VACUUM (ANALYZE) requests");
            st.execute("VACUUM (ANALYZE) line_items");
            System.out.printf("loaded %,d requests + %,d line items in %.0f s (insert %.0f s, %d indexes rebuilt %.0f s, vacuum analyze %.0f s)%n",
                    TOTAL, TOTAL, (System.nanoTime() - t0) / 1e9, (inserted - t0) / 1e9, indexes.size(), (indexed - inserted) / 1e9,
                    (System.nanoTime() - indexed) / 1e9);
            String quoted = "'" + partnerId.replace("'", "''") + "'";
            try (ResultSet rs = st.executeQuery("SELECT count(*) FILTER (WHERE partner_id = " + quoted + "), count(*),"
                    + " count(DISTINCT partner_id), pg_size_pretty(pg_total_relation_size('requests')),"
                    + " pg_size_pretty(pg_total_relation_size('line_items')) FROM requests")) {
                rs.next();
                System.out.printf("requests: %,d for the partner under test, %,d in all, %d partners; requests %s, line_items %s (tables + indexes)%n",
                        rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getString(4), rs.getString(5));
            }
            try (ResultSet rs = st.executeQuery("SELECT status, count(*) FROM line_items WHERE partner_id = " + quoted
                    + " GROUP BY status ORDER BY count(*) DESC")) {
                StringBuilder mix = new StringBuilder("items of the partner under test by status:");
                while (rs.next()) {
                    mix.append(String.format(" %s %,d;", rs.getString(1), rs.getLong(2)));
                }
                System.out.println(mix);
            }
        }
    }

    // ------------------------------------------------------------------ GET /v1/requests

    private static void listBench(URI gateway, URI requests, String partnerId, String apiKey, int calls, int warmUp,
                                  Duration cap) throws Exception {
        Map<String, String> queries = new LinkedHashMap<>();
        queries.put("status=pending (the aim)", "?status=pending");
        queries.put("no filter (context)", "");
        queries.put("status=approved (rarer, context)", "?status=approved");
        System.out.printf("%nGET /v1/requests page 1 (limit 20), %d sequential calls per query after up to %d warm-up, at most %d s each; loopback, %d cores, %s%n",
                calls, warmUp, cap.toSeconds(), Runtime.getRuntime().availableProcessors(), loadAverage());
        System.out.printf("%-34s %-8s %8s %5s %8s %8s %8s %8s%n", "query", "target", "total", "n", "p50 ms", "p95 ms", "p99 ms", "max ms");
        String pendingVerdict = null;
        for (Map.Entry<String, String> query : queries.entrySet()) {
            String[][] targets = {
                    {"gateway", gateway.resolve("/v1/requests" + query.getValue()).toString(), "x-api-key", apiKey},
                    {"direct", requests.resolve("/v1/requests" + query.getValue()).toString(), "X-Partner-Id", partnerId}};
            for (String[] target : targets) {
                HttpRequest request = HttpRequest.newBuilder(URI.create(target[1])).header(target[2], target[3])
                        .timeout(Duration.ofSeconds(30)).GET().build();
                long total = total(request);
                double[] r = time(request, warmUp, calls, cap);
                System.out.printf("%-34s %-8s %8d %5d %8.1f %8.1f %8.1f %8.1f%s%n", query.getKey(), target[0], total,
                        (long) r[0], r[1], r[2], r[3], r[4], r[2] >= 50 ? "   <-- p95 over 50 ms" : "");
                if (query.getKey().startsWith("status=pending") && target[0].equals("gateway")) {
                    pendingVerdict = String.format("GET /v1/requests?status=pending through the gateway: p95 %.1f ms -> %s",
                            r[2], r[2] < 50 ? "aim met (p95 under 50 ms)" : "aim missed (p95 not under 50 ms)");
                }
            }
        }
        System.out.println("\n" + pendingVerdict);
    }

    private static long total(HttpRequest request) throws Exception {
        HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException(request.uri() + " answered " + response.statusCode() + " " + response.body());
        }
        return JSON.readTree(response.body()).path("pagination").path("total").asLong(-1);
    }

    /** n, p50, p95, p99, max (ms) of up to {@code calls} sequential calls, stopped at {@code cap}. */
    private static double[] time(HttpRequest request, int warmUp, int calls, Duration cap) throws Exception {
        long warmEnd = System.nanoTime() + cap.toNanos() / 2;
        for (int i = 0; i < warmUp && System.nanoTime() < warmEnd; i++) {
            HTTP.send(request, HttpResponse.BodyHandlers.discarding());
        }
        Histogram histogram = new Histogram(3);
        long end = System.nanoTime() + cap.toNanos();
        for (int i = 0; i < calls && System.nanoTime() < end; i++) {
            long start = System.nanoTime();
            HttpResponse<byte[]> response = HTTP.send(request, HttpResponse.BodyHandlers.ofByteArray());
            histogram.recordValue(Math.max(1, (System.nanoTime() - start) / 1000));
            if (response.statusCode() != 200) {
                throw new IllegalStateException(request.uri() + " answered " + response.statusCode());
            }
        }
        return new double[] {histogram.getTotalCount(), histogram.getValueAtPercentile(50) / 1000.0,
                histogram.getValueAtPercentile(95) / 1000.0, histogram.getValueAtPercentile(99) / 1000.0,
                histogram.getMaxValue() / 1000.0};
    }

    /** EXPLAIN (ANALYZE, BUFFERS) of what RequestQueries.list runs: count and page 1. */
    private static void explain(Connection db, String partnerId) throws Exception {
        System.out.println("\nEXPLAIN (ANALYZE, BUFFERS) of the SQL of RequestQueries.list (count, page 1), bitmap scans off as there:");
        try (Statement st = db.createStatement(); ResultSet rs = st.executeQuery(
                "SELECT relname, relpages, relallvisible FROM pg_class WHERE relname IN ('requests', 'line_items')")) {
            while (rs.next()) {
                System.out.printf("-- visibility map: %s %d of %d pages all-visible%n", rs.getString(1), rs.getLong(3), rs.getLong(2));
            }
        }
        try (Statement st = db.createStatement()) {
            st.execute("SET enable_bitmapscan = off");
        }
        for (String status : new String[] {"pending", "approved", "cancelled"}) {
            print(db, "-- status=" + status + ", count", STATUS_COUNT, partnerId, status, partnerId, status);
            print(db, "-- status=" + status + ", page 1", STATUS_PAGE, partnerId, status, partnerId, status);
        }
        print(db, "-- no filter, count", "SELECT count(*)" + WHERE, partnerId);
        print(db, "-- no filter, page 1", "SELECT r.*" + WHERE + PAGE, partnerId);
    }

    private static void print(Connection db, String title, String sql, String... parameters) throws Exception {
        System.out.println(title + ":");
        try (PreparedStatement statement = db.prepareStatement("EXPLAIN (ANALYZE, BUFFERS) " + sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setString(i + 1, parameters[i]);
            }
            try (ResultSet rs = statement.executeQuery()) {
                while (rs.next()) {
                    System.out.println("   " + rs.getString(1));
                }
            }
        }
    }

    // ------------------------------------------------------------------ POST /v1/requests and pgbench

    private static void postBench(Path root, PostgresServer postgres, URI gateway, URI requests, String partnerId,
                                  String apiKey, String body, Duration round) throws Exception {
        boolean wrk = Wrk.available();
        Path script = root.resolve("bench/post-json.lua");
        System.out.printf("%nPOST /v1/requests (one item, existing member), %d concurrent clients, rounds of %d s, %s, load from %s%n",
                CONCURRENCY, round.toSeconds(), loadAverage(), wrk ? "wrk" : "a JVM client (install wrk for figures less disturbed by the load generator)");
        URI viaGateway = gateway.resolve("/v1/requests");
        URI direct = requests.resolve("/v1/requests");
        String[] gatewayHeaders = {"x-api-key", apiKey};
        String[] directHeaders = {"X-Partner-Id", partnerId};
        System.out.println("warm-up (JIT, pools):");
        System.out.println(post(wrk, script, "  gateway", viaGateway, gatewayHeaders, body, Duration.ofSeconds(15)).line());
        Load viaGw = post(wrk, script, "through gateway", viaGateway, gatewayHeaders, body, round);
        System.out.println(viaGw.line());
        Load db = pgbench(postgres, round);
        if (db != null) {
            System.out.println(db.line());
        }
        Load svc = post(wrk, script, "direct to requests-service (context)", direct, directHeaders, body, round);
        System.out.println(svc.line());
        System.out.println();
        if (db != null) {
            System.out.printf("POST /v1/requests through the gateway = %.1f %% of the database's one-row INSERT ceiling (%.0f vs %.0f /s);"
                            + " p99 %.2f ms vs %.2f ms%n", 100 * viaGw.perSecond() / db.perSecond(), viaGw.perSecond(), db.perSecond(),
                    viaGw.p99Ms(), db.p99Ms());
        }
        System.out.printf("gateway = %.0f %% of direct-to-service POST throughput; %s%n", 100 * viaGw.perSecond() / svc.perSecond(),
                loadAverage());
    }

    /** The machine's load when measuring: these figures are only comparable with a quiet machine's. */
    private static String loadAverage() {
        try {
            return "load average " + String.join(" ", List.of(Files.readString(Path.of("/proc/loadavg")).split(" ")).subList(0, 3));
        } catch (Exception e) {
            return "load average unknown";
        }
    }

    private static Load post(boolean wrk, Path script, String name, URI uri, String[] headers, String body,
                             Duration duration) throws Exception {
        // The previous round's load generator cut its calls in flight: let the gateway settle first.
        Thread.sleep(2000);
        if (wrk) {
            Wrk.Result r = Wrk.run(name, uri, headers, CONCURRENCY, duration, script, Map.of("WRK_BODY", body));
            return new Load(name, r.perSecond(), r.p50Ms(), r.p99Ms(), r.errors());
        }
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest request = HttpRequest.newBuilder(uri).headers(headers).header("Content-Type", "application/json")
                .timeout(Duration.ofSeconds(10)).POST(HttpRequest.BodyPublishers.ofString(body)).build();
        Recorder recorder = new Recorder(3);
        AtomicLong errors = new AtomicLong();
        long began = System.nanoTime();
        long end = began + duration.toNanos();
        List<Thread> clients = new ArrayList<>();
        for (int i = 0; i < CONCURRENCY; i++) {
            Thread thread = new Thread(() -> {
                while (System.nanoTime() < end) {
                    long start = System.nanoTime();
                    try {
                        if (client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() / 100 != 2) {
                            errors.incrementAndGet();
                        }
                    } catch (Exception e) {
                        errors.incrementAndGet();
                    }
                    recorder.recordValue(Math.max(1, (System.nanoTime() - start) / 1000));
                }
            });
            thread.start();
            clients.add(thread);
        }
        for (Thread thread : clients) {
            thread.join();
        }
        Histogram h = recorder.getIntervalHistogram();
        return new Load(name, h.getTotalCount() / ((System.nanoTime() - began) / 1e9), h.getValueAtPercentile(50) / 1000.0,
                h.getValueAtPercentile(99) / 1000.0, errors.get());
    }

    private static final Pattern TPS = Pattern.compile("^tps = ([\\d.]+)");

    /**
     * pgbench with one-row INSERT transactions (autocommit, prepared, like the service's statements),
     * 16 clients on 2 threads, against the very PostgreSQL server of the platform, into a scratch table
     * (uuid key, a few columns) of a scratch database. Latencies from pgbench's per-transaction log.
     */
    private static Load pgbench(PostgresServer postgres, Duration duration) throws Exception {
        String pgbench = Files.isExecutable(Path.of("/usr/bin/pgbench")) ? "/usr/bin/pgbench" : "pgbench";
        postgres.ensureDatabase("bench_scratch");
        try (Connection db = DriverManager.getConnection(postgres.jdbcUrl("bench_scratch"), postgres.username(), postgres.password());
             Statement st = db.createStatement()) {
            st.execute("DROP TABLE IF EXISTS scratch_inserts");
            st.execute("CREATE TABLE scratch_inserts (id uuid PRIMARY KEY, partner_id text NOT NULL, status text NOT NULL,"
                    + " notes text, created_at timestamptz NOT NULL)");
        }
        Path dir = Files.createTempDirectory("bench-pgbench-");
        Path script = dir.resolve("insert.sql");
        Files.writeString(script, "INSERT INTO scratch_inserts (id, partner_id, status, notes, created_at)"
                + " VALUES (gen_random_uuid(), 'bench', 'pending', 'bench', now());\n");
        List<String> command = List.of(pgbench, "-n", "-M", "prepared", "-c", Integer.toString(CONCURRENCY), "-j", "2",
                "-T", Long.toString(duration.toSeconds()), "-f", script.toString(), "-l", "--log-prefix=" + dir.resolve("txlog"),
                "-h", postgres.host(), "-p", Integer.toString(postgres.port()), "-U", postgres.username(), "bench_scratch");
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).directory(dir.toFile());
        builder.environment().put("PGPASSWORD", postgres.password());
        Process process;
        try {
            process = builder.start();
        } catch (Exception e) {
            System.out.println("pgbench not found (apt-get install postgresql-client): no database ceiling, no ratio");
            return null;
        }
        double tps = 0;
        StringBuilder output = new StringBuilder();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream()))) {
            for (String line; (line = out.readLine()) != null; ) {
                output.append(line).append('\n');
                Matcher m = TPS.matcher(line);
                if (m.find()) {
                    tps = Double.parseDouble(m.group(1));
                }
            }
        }
        if (process.waitFor() != 0 || tps == 0) {
            System.out.println("pgbench failed:\n" + output);
            return null;
        }
        Histogram histogram = new Histogram(3);
        long failed = 0;
        try (Stream<Path> logs = Files.list(dir)) {
            for (Path log : logs.filter(f -> f.getFileName().toString().startsWith("txlog")).toList()) {
                for (String line : Files.readAllLines(log)) {
                    // client_id transaction_no time(us) script_no time_epoch time_us
                    String[] f = line.trim().split("\\s+");
                    if (f.length >= 3 && f[2].matches("\\d+")) {
                        histogram.recordValue(Math.max(1, Long.parseLong(f[2])));
                    } else {
                        failed++;
                    }
                }
            }
        }
        return new Load("pgbench one-row INSERT (same server)", tps, histogram.getValueAtPercentile(50) / 1000.0,
                histogram.getValueAtPercentile(99) / 1000.0, failed);
    }
}
