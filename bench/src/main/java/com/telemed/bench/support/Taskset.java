package com.telemed.bench.support;

import java.io.IOException;

/** {@code taskset}: pins a process, all its threads, to one CPU. */
public final class Taskset {

    private Taskset() {
    }

    /** Fails (IOException, with taskset's output) when taskset is missing or refuses. */
    public static void pin(long pid, int cpu) throws Exception {
        Process taskset = new ProcessBuilder("taskset", "-a", "-p", "-c", Integer.toString(cpu), Long.toString(pid))
                .redirectErrorStream(true).start();
        String out = new String(taskset.getInputStream().readAllBytes());
        if (taskset.waitFor() != 0) {
            throw new IOException("taskset failed for " + pid + ": " + out.strip());
        }
    }
}
