package com.telemed.testkit.browser;

import com.telemed.testkit.infra.JavaProcesses;
import com.telemed.testkit.infra.PlatformCache;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Debian's {@code chromium} and {@code chromium-driver}, the browser and driver every page test runs
 * ({@code /usr/bin/chromium}, {@code /usr/bin/chromedriver}). When either is missing and this JVM
 * runs as root with {@code apt-get}, they are installed ({@code apt-get install -y
 * --no-install-recommends chromium chromium-driver}, after {@code apt-get update} when the first
 * attempt fails), saying so on standard error; otherwise the check fails with a message naming the
 * packages. {@code .ci/run} installs them the same way before the build, so in CI this finds them.
 *
 * <p>JVMs of one build that check at the same time install once: a file lock in the platform cache
 * keeps them apart, and apt-get waits for dpkg's lock of any other apt run.
 */
public final class BrowserPackages {

    public static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    public static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    public static final List<String> PACKAGES = List.of("chromium", "chromium-driver");
    private static final Path APT_GET = Path.of("/usr/bin/apt-get");
    private static final long APT_TIMEOUT_SECONDS = 900;

    /** Runs a command with its output appended to a log; returns its exit code. */
    interface Commands {
        int run(List<String> command, Path log);
    }

    private final Path chromium;
    private final Path chromedriver;
    private final Path aptGet;
    private final boolean root;
    private final Commands commands;
    private final Path log;
    private final PrintStream messages;

    BrowserPackages(Path chromium, Path chromedriver, Path aptGet, boolean root, Commands commands, Path log,
            PrintStream messages) {
        this.chromium = chromium;
        this.chromedriver = chromedriver;
        this.aptGet = aptGet;
        this.root = root;
        this.commands = commands;
        this.log = log;
        this.messages = messages;
    }

    /** Makes sure both are installed (installing them when this JVM may), or fails saying what is missing. */
    public static void ensureInstalled() {
        BrowserPackages system = new BrowserPackages(CHROMIUM, CHROMEDRIVER, APT_GET, isRoot(), BrowserPackages::runLogged,
                PlatformCache.directory().resolve("browser-packages.log"), System.err);
        if (system.missing().isEmpty()) {
            return;
        }
        // The file lock keeps other JVMs of the build out; this one keeps this JVM's threads apart.
        synchronized (BrowserPackages.class) {
            Path cache = PlatformCache.directory();
            try {
                Files.createDirectories(cache);
                try (FileChannel channel = FileChannel.open(cache.resolve(".browser-packages.lock"),
                        StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                     FileLock ignored = channel.lock()) {
                    system.ensure();
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot take the lock " + cache.resolve(".browser-packages.lock"), e);
            }
        }
    }

    /** The executables missing, in the order chromium, chromedriver. */
    List<Path> missing() {
        List<Path> missing = new ArrayList<>();
        for (Path executable : List.of(chromium, chromedriver)) {
            if (!Files.isExecutable(executable)) {
                missing.add(executable);
            }
        }
        return missing;
    }

    void ensure() {
        List<Path> missing = missing();
        if (missing.isEmpty()) {
            return;
        }
        if (!root || !Files.isExecutable(aptGet)) {
            throw new IllegalStateException(missingMessage(missing) + "; this JVM cannot install them ("
                    + (root ? aptGet + " not found" : "not root") + "): install them with `apt-get install -y "
                    + "--no-install-recommends " + String.join(" ", PACKAGES) + "` as root");
        }
        messages.println("[testkit] " + missingMessage(missing) + ": installing them with apt-get (log: " + log + ")");
        List<String> install = new ArrayList<>(List.of(aptGet.toString(), "-o", "DPkg::Lock::Timeout=600", "install", "-y",
                "--no-install-recommends"));
        install.addAll(PACKAGES);
        int exit = commands.run(install, log);
        if (exit != 0) {
            messages.println("[testkit] apt-get install exited " + exit + ": apt-get update, then install again");
            int update = commands.run(List.of(aptGet.toString(), "-o", "DPkg::Lock::Timeout=600", "update"), log);
            exit = update == 0 ? commands.run(install, log) : update;
        }
        List<Path> still = missing();
        if (exit != 0 || !still.isEmpty()) {
            throw new IllegalStateException("could not install the Debian packages " + String.join(" and ", PACKAGES)
                    + " (apt-get exit " + exit + (still.isEmpty() ? "" : ", still missing " + still) + "); log " + log
                    + ":\n" + JavaProcesses.tail(log, 20));
        }
        messages.println("[testkit] installed " + String.join(" and ", PACKAGES));
    }

    private static String missingMessage(List<Path> missing) {
        return "the page tests need Debian's packages " + String.join(" and ", PACKAGES) + " ("
                + String.join(" and ", missing.stream().map(Path::toString).toList()) + " missing)";
    }

    private static boolean isRoot() {
        return new com.sun.security.auth.module.UnixSystem().getUid() == 0;
    }

    private static int runLogged(List<String> command, Path log) {
        try {
            Files.createDirectories(log.getParent());
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
            builder.environment().put("DEBIAN_FRONTEND", "noninteractive");
            Process process = builder.start();
            if (!process.waitFor(APT_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return -1;
            }
            return process.exitValue();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command.get(0), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while installing " + PACKAGES, e);
        }
    }
}
