package com.telemed.testkit.browser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the check does when the browser's packages are missing, with apt-get stood in for. */
class BrowserPackagesTest {

    private static final List<String> INSTALL = List.of("apt-get", "-o", "DPkg::Lock::Timeout=600", "install", "-y",
            "--no-install-recommends", "chromium", "chromium-driver");
    private static final List<String> UPDATE = List.of("apt-get", "-o", "DPkg::Lock::Timeout=600", "update");

    @TempDir
    Path folder;

    private final List<List<String>> ran = new ArrayList<>();
    private final ByteArrayOutputStream stderr = new ByteArrayOutputStream();

    @Test
    void nothingRunsWhenBothAreThere() {
        executable("chromium");
        executable("chromedriver");

        packages(true, List.of(0)).ensure();

        assertEquals(List.of(), ran);
        assertEquals("", said());
    }

    @Test
    void rootInstallsThePackagesWhenTheDriverIsMissing() {
        executable("chromium");

        packages(true, List.of(0)).ensure();

        assertEquals(List.of(INSTALL), ran);
        assertEquals("[testkit] the page tests need Debian's packages chromium and chromium-driver (" + folder.resolve("chromedriver")
                + " missing): installing them with apt-get (log: " + folder.resolve("apt.log") + ")\n"
                + "[testkit] installed chromium and chromium-driver\n", said());
    }

    @Test
    void aFailedInstallIsTriedAgainAfterAnUpdate() {
        packages(true, List.of(100, 0, 0)).ensure();

        assertEquals(List.of(INSTALL, UPDATE, INSTALL), ran);
        assertTrue(said().contains("[testkit] apt-get install exited 100: apt-get update, then install again\n"), said());
        assertTrue(Files.isExecutable(folder.resolve("chromium")) && Files.isExecutable(folder.resolve("chromedriver")));
    }

    @Test
    void anInstallThatFailsTwiceFailsWithApt_sLog() {
        IllegalStateException failure = assertThrows(IllegalStateException.class,
                () -> packages(true, List.of(100, 0, 100)).ensure());

        assertEquals(List.of(INSTALL, UPDATE, INSTALL), ran);
        assertTrue(failure.getMessage().startsWith("could not install the Debian packages chromium and chromium-driver (apt-get exit 100, "
                + "still missing [" + folder.resolve("chromium") + ", " + folder.resolve("chromedriver") + "]); log "
                + folder.resolve("apt.log") + ":\nE: Unable to locate package chromium"), failure.getMessage());
    }

    @Test
    void withoutRootTheCheckFailsNamingThePackages() {
        executable("chromedriver");
        executable("apt-get");

        IllegalStateException failure = assertThrows(IllegalStateException.class, () -> packages(false, List.of()).ensure());

        assertEquals(List.of(), ran);
        assertEquals("the page tests need Debian's packages chromium and chromium-driver (" + folder.resolve("chromium")
                + " missing); this JVM cannot install them (not root): install them with `apt-get install -y "
                + "--no-install-recommends chromium chromium-driver` as root", failure.getMessage());
    }

    @Test
    void withoutAptGetTheCheckFailsNamingThePackages() {
        IllegalStateException failure = assertThrows(IllegalStateException.class,
                () -> new BrowserPackages(folder.resolve("chromium"), folder.resolve("chromedriver"), folder.resolve("no-apt-get"),
                        true, this::run, folder.resolve("apt.log"), new PrintStream(stderr)).ensure());

        assertEquals("the page tests need Debian's packages chromium and chromium-driver (" + folder.resolve("chromium") + " and "
                + folder.resolve("chromedriver") + " missing); this JVM cannot install them (" + folder.resolve("no-apt-get")
                + " not found): install them with `apt-get install -y --no-install-recommends chromium chromium-driver` as root",
                failure.getMessage());
    }

    private List<Integer> exits;

    /** The check with apt-get answering {@code exits} in turn; an install that exits 0 puts both executables in place. */
    private BrowserPackages packages(boolean root, List<Integer> exits) {
        this.exits = new ArrayList<>(exits);
        if (root) {
            executable("apt-get");
        }
        return new BrowserPackages(folder.resolve("chromium"), folder.resolve("chromedriver"), folder.resolve("apt-get"), root,
                this::run, folder.resolve("apt.log"), new PrintStream(stderr, true, StandardCharsets.UTF_8));
    }

    private int run(List<String> command, Path log) {
        List<String> named = new ArrayList<>(command);
        named.set(0, Path.of(command.get(0)).getFileName().toString());
        ran.add(named);
        int exit = exits.remove(0);
        try {
            Files.writeString(log, exit == 0 ? "done\n" : "E: Unable to locate package chromium\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (exit == 0 && named.contains("install")) {
            executable("chromium");
            executable("chromedriver");
        }
        return exit;
    }

    private void executable(String name) {
        try {
            Path file = folder.resolve(name);
            if (!Files.exists(file)) {
                Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private String said() {
        return stderr.toString(StandardCharsets.UTF_8);
    }
}
