package com.telemed.testkit.concurrent;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * Lowers the CPU priority of a test JVM whose module asks for it ({@code tests.nice} in the module's
 * pom, passed as the system property {@value #PROPERTY}): every thread of the JVM at the session's
 * start gets that niceness, and with it every thread and process they start later (Linux gives a new
 * thread or process its creator's niceness), the servers a test starts included.
 *
 * <p>The build runs four modules at a time on two cores (docs/testing.md). The modules that no other
 * one waits for ({@code testkit-tests}, {@code platform-commons-tests}) run niced, so that the service
 * modules that {@code e2e} waits for get the cores first, and what is left of the niced ones fills the
 * cores {@code e2e} leaves idle. Alone, a niced JVM runs as fast as any: niceness only decides who
 * waits when the cores are contended.
 *
 * <p>A JUnit Platform session listener ({@code META-INF/services}); without the property, or on a
 * system without {@code /proc} and {@code renice}, it changes nothing.
 */
public final class TestJvmPriority implements LauncherSessionListener {

    /** The niceness a test JVM asks for (0 to 19), unset or empty for none. */
    public static final String PROPERTY = "telemed.tests.nice";

    private static final System.Logger LOG = System.getLogger(TestJvmPriority.class.getName());

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        wanted().ifPresent(TestJvmPriority::apply);
    }

    /** The niceness the JVM's system property asks for, if any. */
    static OptionalInt wanted() {
        String value = System.getProperty(PROPERTY, "").trim();
        if (value.isEmpty()) {
            return OptionalInt.empty();
        }
        int nice = Integer.parseInt(value);
        if (nice < 0 || nice > 19) {
            throw new IllegalArgumentException(PROPERTY + " must be 0 to 19, not " + value);
        }
        return OptionalInt.of(nice);
    }

    /** Gives every thread of this JVM the niceness (Linux: niceness is per thread). */
    static void apply(int nice) {
        Path tasks = Path.of("/proc/self/task");
        if (!Files.isDirectory(tasks)) {
            return;
        }
        List<String> command = new ArrayList<>(List.of("renice", "-n", Integer.toString(nice), "-p"));
        try (Stream<Path> threads = Files.list(tasks)) {
            threads.map(task -> task.getFileName().toString()).forEach(command::add);
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "test JVM priority left as it was: " + e.getMessage());
            return;
        }
        try {
            Process renice = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!renice.waitFor(10, TimeUnit.SECONDS) || renice.exitValue() != 0) {
                renice.destroyForcibly();
                // A thread that ended between the listing and renice makes it exit 1; the others have it.
                LOG.log(System.Logger.Level.DEBUG, "renice did not finish cleanly for every thread");
            }
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "test JVM priority left as it was (no renice): " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The niceness of the calling thread, from {@code /proc/thread-self/stat} (Linux only). */
    public static int currentThreadNiceness() throws IOException {
        String stat = Files.readString(Path.of("/proc/thread-self/stat"));
        // After the command name in parentheses: state is the 3rd field, niceness the 19th.
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Integer.parseInt(fields[19 - 3]);
    }
}
