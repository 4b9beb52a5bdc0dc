package com.telemed.bench.support;

import com.telemed.testkit.infra.PostgresServer;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;

/**
 * pgbench (Debian package {@code postgresql-client}) against the platform's own PostgreSQL server:
 * the database's ceiling for one-row INSERT transactions, to set a service's writes beside.
 */
public final class Pgbench {

    /** Transactions per second, p50, p99 and p95 of a transaction (ms), and failed transactions. */
    public record Result(double perSecond, double p50Ms, double p99Ms, long failed, double p95Ms) {
    }

    private static final Pattern TPS = Pattern.compile("^tps = ([\\d.]+)");

    private Pgbench() {
    }

    /**
     * One-row INSERT transactions (autocommit, prepared, like a service's statements), {@code clients}
     * clients on 2 threads, into a scratch table (uuid key, a few columns) of a scratch database.
     * Latencies from pgbench's per-transaction log. Null, with the reason printed, when pgbench is
     * missing or failed.
     */
    public static Result oneRowInserts(PostgresServer postgres, int clients, Duration duration) throws Exception {
        postgres.ensureDatabase("bench_scratch");
        try (Connection db = DriverManager.getConnection(postgres.jdbcUrl("bench_scratch"), postgres.username(), postgres.password());
             Statement st = db.createStatement()) {
            st.execute("DROP TABLE IF EXISTS scratch_inserts");
            st.execute("CREATE TABLE scratch_inserts (id uuid PRIMARY KEY, partner_id text NOT NULL, status text NOT NULL,"
                    + " notes text, created_at timestamptz NOT NULL)");
        }
        return run(postgres, "bench_scratch", "INSERT INTO scratch_inserts (id, partner_id, status, notes, created_at)"
                + " VALUES (gen_random_uuid(), 'bench', 'pending', 'bench', now());\n", clients, duration);
    }

    /**
     * A pgbench script ({@code -M prepared}, {@code clients} clients on 2 threads, for {@code duration})
     * against one database of the server: each run of the script is one pgbench transaction. Null,
     * with the reason printed, when pgbench is missing or failed.
     */
    public static Result run(PostgresServer postgres, String database, String scriptText, int clients, Duration duration)
            throws Exception {
        return run(postgres, database, scriptText, Map.of(), clients, duration);
    }

    /** As {@link #run(PostgresServer, String, String, int, Duration)}, with the script's {@code :variables} set ({@code -D}). */
    public static Result run(PostgresServer postgres, String database, String scriptText, Map<String, String> variables, int clients,
                             Duration duration) throws Exception {
        String pgbench = Files.isExecutable(Path.of("/usr/bin/pgbench")) ? "/usr/bin/pgbench" : "pgbench";
        Path dir = Files.createTempDirectory("bench-pgbench-");
        Path script = dir.resolve("script.sql");
        Files.writeString(script, scriptText);
        List<String> command = new ArrayList<>(List.of(pgbench, "-n", "-M", "prepared", "-c", Integer.toString(clients), "-j", "2",
                "-T", Long.toString(duration.toSeconds()), "-f", script.toString(), "-l", "--log-prefix=" + dir.resolve("txlog"),
                "-h", postgres.host(), "-p", Integer.toString(postgres.port()), "-U", postgres.username()));
        variables.forEach((name, value) -> command.addAll(List.of("-D", name + "=" + value)));
        command.add(database);
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
        return new Result(tps, histogram.getValueAtPercentile(50) / 1000.0, histogram.getValueAtPercentile(99) / 1000.0, failed,
                histogram.getValueAtPercentile(95) / 1000.0);
    }
}
