package com.telemed.bench.support;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** {@code jcmd} of this JDK against another JVM (e.g. to start and stop a flight recording). */
public final class Jcmd {

    private Jcmd() {
    }

    /** Runs it, output discarded; a failure is printed, not thrown. */
    public static void run(long pid, String... command) throws Exception {
        List<String> line = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                Long.toString(pid)));
        line.addAll(List.of(command));
        Process process = new ProcessBuilder(line).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
            System.out.println("  (jcmd " + String.join(" ", command) + " failed)");
        }
    }
}
