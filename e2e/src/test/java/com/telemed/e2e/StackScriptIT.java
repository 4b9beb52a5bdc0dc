package com.telemed.e2e;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.telemed.testkit.e2e.RunningPlatform;
import com.telemed.testkit.infra.PostgresBinaries;
import com.telemed.testkit.platform.PlatformService;
import com.telemed.testkit.report.BootLog;
import com.telemed.testkit.stack.StackMain;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's first command as a new user runs it: the {@code ./stack} script itself, with a
 * stack home, a cache and every JVM's temp folder all new and empty ({@code STACK_HOME},
 * {@code JAVA_TOOL_OPTIONS=-Djava.io.tmpdir=...}). It uses the build the reactor just made (the
 * script rebuilds only what is stale) and the stack's fixed ports, so nothing else may hold them.
 *
 * <p>One story on one machine, in order, so that the platform starts once: a first {@code up} whose
 * launcher is killed while it extracts the binaries; what that and other interrupted runs leave
 * (a half-extracted folder, zonky's leftovers in the temp folder, an initdb that never finished,
 * unformatted Kafka storage, an empty key) and the {@code up} that recovers from all of it; then
 * {@code status}, {@code env}, a second {@code up} and {@code down}, which leaves nothing running.
 * A step fails the ones after it; {@code down} runs after each whatever happened. The class runs
 * beside the others ({@code CONCURRENT}), its steps one after the other in its thread
 * ({@code SAME_THREAD} on each: a class's mode is its methods' too).
 */
@Execution(ExecutionMode.CONCURRENT)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class StackScriptIT {

    /** Longer than {@code STACK_START_TIMEOUT} ({@link #start}) plus the servers' start: a niced up beside a busy sequence. */
    private static final Duration UP_TIMEOUT = Duration.ofMinutes(8);
    /** coreutils' nice, on every Linux machine this runs on (without it the script runs at the usual priority). */
    private static final String NICE = "/usr/bin/nice";
    /** What the issue found: zonky's half-extracted binaries in the temp folder. */
    private static final String ZONKY_LEFTOVER = "PG-8633e0cc222b6e8c5af57b0768a0fd0d";

    /** Static: the story's one machine, made before its first step (the instance's would come too late for @BeforeAll). */
    @TempDir
    static Path work;
    private Path home;
    private Path temp;
    private Set<Long> ours = Set.of();

    @BeforeAll
    void freshMachine() throws IOException {
        for (int port : stackPorts()) {
            try (ServerSocket probe = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                // free
            } catch (IOException taken) {
                fail("port " + port + " of ./stack is taken: stop the stack running on this machine (./stack down) first");
            }
        }
        home = Files.createDirectories(work.resolve("stack-home"));
        temp = Files.createDirectories(work.resolve("tmp"));
    }

    @AfterAll
    void downWhateverHappened() throws Exception {
        run(home, "down");
    }

    @Test
    @Order(1)
    @Execution(ExecutionMode.SAME_THREAD)
    void aLauncherKilledDuringExtractionFailsSayingSoAndLeavesItsPartialFolder() throws Exception {
        Process first = start(home, "up");
        Path cache = home.resolve("cache");
        await().atMost(UP_TIMEOUT).pollInterval(Duration.ofMillis(5)).until(() -> extracting(cache));
        long launcher = Long.parseLong(Files.readString(home.resolve("run/stack.pid")).trim());
        ProcessHandle.of(launcher).orElseThrow().destroyForcibly();
        assertTrue(first.waitFor(2, TimeUnit.MINUTES));
        String firstOutput = new String(first.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(1, first.exitValue(), firstOutput);
        assertTrue(firstOutput.contains("The platform did not start."), firstOutput);
        assertTrue(extracting(cache), "the killed extraction left its partial folder");
    }

    @Test
    @Order(2)
    @Execution(ExecutionMode.SAME_THREAD)
    void upRecoversFromWhatInterruptedRunsLeft() throws Exception {
        // What the issue found: zonky's half-extracted binaries in the temp folder...
        Path zonkyLeftover = Files.createDirectories(temp.resolve("embedded-pg/" + ZONKY_LEFTOVER + "/lib"));
        Files.writeString(zonkyLeftover.resolve("libicudata.so"), "half");
        // ...and the same in the launcher's own places, beside the partial folder of the killed run: a
        // binaries folder without its marker, another partial sibling, an initdb that never finished,
        // unformatted Kafka storage, an empty key.
        Path cache = home.resolve("cache");
        Path binaries = Files.createDirectories(cache.resolve(binariesFolderName() + "/bin"));
        Files.writeString(binaries.resolve("postgres"), "truncated");
        Files.createDirectories(cache.resolve(binariesFolderName() + ".partial-31337/lib"));
        Path postgresData = Files.createDirectories(home.resolve("data/postgres"));
        Files.writeString(postgresData.resolve("PG_VERSION"), "17\n");
        Files.writeString(postgresData.resolve("postgresql.conf"), "# initdb was interrupted here\n");
        Path kafkaData = Files.createDirectories(home.resolve("data/kafka/data"));
        Files.writeString(kafkaData.resolve("bootstrap.checkpoint"), "half");
        Files.writeString(home.resolve("ops-api-key"), "");

        long started = System.nanoTime();
        Result up = run(home, "up");
        BootLog.record(BootLog.Kind.STACK, "./stack up on a fresh machine", started);

        assertEquals(0, up.exit(), up.output());
        assertTrue(up.output().contains("Platform ready in"), up.output());
        assertTrue(up.output().contains("Gateway:      http://127.0.0.1:8080"), up.output());
        assertTrue(up.output().contains("Mail:         SMTP 127.0.0.1:" + StackMain.SMTP_PORT + ", read it over IMAP at 127.0.0.1:"
                + StackMain.IMAP_PORT), up.output());
        // The demo pages a new user can open in a browser (issue 39): a booking link and a hosted survey,
        // each a page of the web service through the gateway.
        List<String> pages = up.output().lines().filter(line -> line.matches(
                "Booking page: http://127\\.0\\.0\\.1:8080/book/[A-Za-z0-9_-]{32}|"
                        + "Survey page:  http://127\\.0\\.0\\.1:8080/surveys/demo-intake\\?key=pk_[0-9a-f]{32}")).toList();
        assertEquals(2, pages.size(), up.output());
        for (String page : pages) {
            String url = page.substring(page.indexOf("http://"));
            var answer = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(url))
                    .GET().build(), java.net.http.HttpResponse.BodyHandlers.ofString());
            assertEquals(200, answer.statusCode(), url + "\n" + answer.body());
            assertTrue(answer.headers().firstValue("content-type").orElse("").startsWith("text/html"), url);
        }
        // The first admin's sign-in, printed once per up and kept in .stack/ like the operator key
        // (people-and-pages.md, "Local accounts"), works at the gateway.
        Properties demo = new Properties();
        try (var in = Files.newBufferedReader(home.resolve("demo.properties"))) {
            demo.load(in);
        }
        // The console's address and the demo prescriber's sign-in beside the admin's (issue #41), and the
        // request waiting for the prescriber's review.
        assertTrue(up.output().contains("Console:         http://127.0.0.1:8080/console\n"
                + "Admin sign-in:   admin@stack.local  " + demo.getProperty("adminPassword") + "   (POST /ops/v1/sessions, then"
                + " Authorization: Bearer <token>)\n"
                + "Prescriber sign-in: prescriber@stack.local  " + demo.getProperty("prescriberPassword")
                + "   (the console, or POST /ops/v1/sessions)\n"), up.output());
        assertTrue(up.output().contains("Demo request:    " + demo.getProperty("reviewRequestId")
                + " (semaglutide 0.25 mg weekly, pending: the demo prescriber reviews it in the console)\n"), up.output());
        assertTrue(demo.getProperty("adminPassword").matches("[A-Za-z0-9_-]{24}"), "a generated password");
        var signIn = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                        java.net.URI.create("http://127.0.0.1:8080/ops/v1/sessions")).header("Content-Type", "application/json")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{\"email\":\"admin@stack.local\",\"password\":\""
                        + demo.getProperty("adminPassword") + "\"}")).build(), java.net.http.HttpResponse.BodyHandlers.ofString());
        assertEquals(201, signIn.statusCode(), signIn.body());
        ours = processesOf(home);
        assertEquals(1 + 2 + PlatformService.values().length, pidFiles(home).size(), "launcher, PostgreSQL, Kafka, services");
        assertAllReady(run(home, "status").output());
        assertFalse(extracting(cache), "every partial folder removed");
        assertFalse(Files.exists(cache.resolve(binariesFolderName() + ".partial-31337")));
        assertTrue(Files.size(cache.resolve(binariesFolderName() + "/bin/postgres")) > 1_000_000);
        assertTrue(Files.isRegularFile(cache.resolve(".extract.lock")), "binaries extracted into the stack's cache");
        try (Stream<Path> inTemp = Files.walk(temp)) {
            List<Path> binariesInTemp = inTemp.filter(path -> path.getFileName().toString().startsWith("PG-"))
                    .filter(path -> !path.getFileName().toString().equals(ZONKY_LEFTOVER)).toList();
            assertEquals(List.of(), binariesInTemp, "nothing extracted into the temp folder");
        }
        assertTrue(Files.exists(postgresData.resolve("postmaster.opts")), "a cluster that started");
        assertTrue(Files.exists(kafkaData.resolve("meta.properties")), "formatted storage");
        assertTrue(Files.readString(home.resolve("ops-api-key")).trim().startsWith("ops_"));
    }

    @Test
    @Order(3)
    @Execution(ExecutionMode.SAME_THREAD)
    void statusEnvAndASecondUpSeeItRunningAndDownLeavesNothingRunning() throws Exception {
        // Ready as a moment ago, or again within a while: the stack runs at the lowest share of the cores
        // beside a busy sequence, and a starved service can miss a readiness probe's 3 s (or its
        // consumer its group's heartbeats) before it is served again.
        await("every part of the stack ready").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofSeconds(2)).untilAsserted(() -> {
            Result status = run(home, "status");
            assertEquals(0, status.exit(), status.output());
            assertAllReady(status.output());
        });
        String smtpGreeting = greeting(StackMain.SMTP_PORT, "QUIT", "221");
        assertTrue(smtpGreeting.startsWith("220 "), smtpGreeting);
        String imapGreeting = greeting(StackMain.IMAP_PORT, "a1 LOGOUT", "a1 ");
        assertTrue(imapGreeting.startsWith("* OK"), imapGreeting);
        Result env = run(home, "env");
        assertTrue(env.output().contains("export SMTP_HOST=127.0.0.1\nexport SMTP_PORT=" + StackMain.SMTP_PORT
                + "\nexport IMAP_PORT=" + StackMain.IMAP_PORT + "\n"), env.output());
        assertTrue(env.output().contains("export ADMIN_EMAIL=admin@stack.local\n"), env.output());
        assertTrue(env.output().contains("export CONSOLE_URL=http://127.0.0.1:8080/console\n"), env.output());
        assertTrue(env.output().contains("export PRESCRIBER_EMAIL=prescriber@stack.local\n"), env.output());

        Result again = run(home, "up");
        assertEquals(0, again.exit(), again.output());
        assertTrue(again.output().contains("already running"), again.output());

        Result down = run(home, "down");
        assertEquals(0, down.exit(), down.output());
        assertNoneAlive(ours);
        String stopped = run(home, "status").output();
        assertTrue(stopped.contains("supervisor        not running"), stopped);
        assertTrue(stopped.lines().anyMatch(line -> line.startsWith("smtp ") && line.endsWith("  stopped")), stopped);
        assertFalse(answers(StackMain.SMTP_PORT), "the SMTP server stopped with the supervisor");
        // Each service that exited by itself left its class-data archive for the next up (issue 44), in place,
        // never half-written: nothing is left beside it.
        try (Stream<Path> archives = Files.list(home.resolve("class-data"))) {
            List<String> names = archives.map(path -> path.getFileName().toString()).sorted().toList();
            List<String> possible = Stream.of(PlatformService.values()).map(service -> service.module() + ".jsa").toList();
            assertTrue(possible.containsAll(names), names.toString());
            assertFalse(names.isEmpty(), "archives made at down");
        }
    }

    private static void assertAllReady(String status) {
        assertTrue(status.contains("supervisor") && status.contains("running"), status);
        assertTrue(status.lines().anyMatch(line -> line.startsWith("postgres ") && line.endsWith("running")), status);
        assertTrue(status.lines().anyMatch(line -> line.startsWith("kafka ") && line.endsWith("running")), status);
        assertTrue(status.lines().anyMatch(line -> line.startsWith("smtp ") && line.contains("port " + StackMain.SMTP_PORT)
                && line.endsWith("  ready")), "SMTP not ready:\n" + status);
        assertTrue(status.lines().anyMatch(line -> line.startsWith("imap ") && line.contains("port " + StackMain.IMAP_PORT)
                && line.endsWith("  ready")), "IMAP not ready:\n" + status);
        for (PlatformService service : PlatformService.values()) {
            assertTrue(status.lines().anyMatch(line -> line.startsWith(service.module() + " ") && line.endsWith("  ready")),
                    service.module() + " not ready:\n" + status);
        }
    }

    private static boolean extracting(Path cache) throws IOException {
        if (!Files.isDirectory(cache)) {
            return false;
        }
        try (Stream<Path> children = Files.list(cache)) {
            return children.anyMatch(path -> path.getFileName().toString().contains(".partial-"));
        }
    }

    private static String binariesFolderName() {
        return PostgresBinaries.folderName();
    }

    private static List<Long> pidFiles(Path home) throws IOException {
        try (Stream<Path> files = Files.list(home.resolve("run"))) {
            List<Long> pids = new ArrayList<>();
            for (Path file : files.filter(path -> path.toString().endsWith(".pid")).toList()) {
                pids.add(Long.parseLong(Files.readString(file).trim()));
            }
            return pids;
        }
    }

    /** Every process the stack started: those of its pid files and all their descendants. */
    private static Set<Long> processesOf(Path home) throws IOException {
        Set<Long> all = new HashSet<>();
        for (long pid : pidFiles(home)) {
            all.add(pid);
            ProcessHandle.of(pid).ifPresent(handle -> handle.descendants().forEach(child -> all.add(child.pid())));
        }
        assertTrue(all.size() > PlatformService.values().length + 3, "PostgreSQL runs its own workers too: " + all);
        return all;
    }

    private static void assertNoneAlive(Set<Long> pids) {
        List<Long> alive = pids.stream().filter(pid -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).toList();
        assertTrue(alive.isEmpty(), "still running after down: " + alive);
    }

    private static List<Integer> stackPorts() {
        List<Integer> ports = new ArrayList<>(List.of(StackMain.POSTGRES_PORT, StackMain.KAFKA_PORT, StackMain.KAFKA_CONTROLLER_PORT,
                StackMain.SMTP_PORT, StackMain.IMAP_PORT));
        for (PlatformService service : PlatformService.values()) {
            ports.add(service.stackPort());
            ports.add(service.stackManagementPort());
        }
        return ports;
    }

    /**
     * The first line a server on the stack's port sends (its greeting); then the goodbye command and
     * the server's replies up to the one starting with {@code lastReply}, so it never writes to a closed connection.
     */
    private static String greeting(int port, String goodbye, String lastReply) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(10_000);
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
            String greeting = in.readLine();
            socket.getOutputStream().write((goodbye + "\r\n").getBytes(StandardCharsets.US_ASCII));
            for (String reply = in.readLine(); reply != null && !reply.startsWith(lastReply); reply = in.readLine()) {
                // the server's goodbye, up to its last line
            }
            return greeting;
        }
    }

    private static boolean answers(int port) {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            return true;
        } catch (IOException refused) {
            return false;
        }
    }

    /**
     * {@code ./stack} and everything it starts run at a lower CPU priority ({@code nice}): beside the
     * sequence of classes on the shared platform they take the cores those leave idle (about half,
     * once the replicas tests are over), not a share of the sequence's (beside the replicas tests,
     * at the same priority, they made them about 40 s slower). Starved of the cores now and then, a
     * service may take longer than the usual 120 s to be ready: {@code STACK_START_TIMEOUT} gives each
     * 300. What the script does is the same.
     */
    private Process start(Path stackHome, String command) throws IOException {
        Path root = RunningPlatform.projectRoot();
        List<String> line = new ArrayList<>();
        if (Files.isExecutable(Path.of(NICE))) {
            line.addAll(List.of(NICE, "-n", "10"));
        }
        line.addAll(List.of(root.resolve("stack").toString(), command));
        ProcessBuilder builder = new ProcessBuilder(line)
                .directory(root.toFile())
                .redirectErrorStream(true);
        Map<String, String> environment = builder.environment();
        environment.put("STACK_START_TIMEOUT", "300");
        // Niced beside the sequence, the stack's PostgreSQL may take longer than the services' usual 5 s to
        // hand out a first connection (a run failed at Flyway's "Acquisition timeout"): the services inherit
        // this, as they inherit the launcher's environment.
        environment.put("QUARKUS_DATASOURCE_JDBC_ACQUISITION_TIMEOUT", "60S");
        environment.remove("PLATFORM_CACHE_DIR");
        environment.remove("PLATFORM_POSTGRES_HOST");
        environment.remove("PLATFORM_KAFKA_BOOTSTRAP_SERVERS");
        environment.remove("PLATFORM_SMTP_HOST");
        environment.put("STACK_HOME", stackHome.toString());
        environment.put("JAVA_TOOL_OPTIONS", "-Djava.io.tmpdir=" + temp);
        environment.put("OPS_API_KEY", "");
        return builder.start();
    }

    private Result run(Path stackHome, String command) throws Exception {
        Process process = start(stackHome, command);
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(UP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly();
            fail("./stack " + command + " did not finish:\n" + output);
        }
        return new Result(process.exitValue(), output);
    }

    private record Result(int exit, String output) {
    }
}
