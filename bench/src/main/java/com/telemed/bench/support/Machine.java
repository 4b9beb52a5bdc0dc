package com.telemed.bench.support;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** What a benchmark prints about the machine it ran on, beside its figures. */
public final class Machine {

    private Machine() {
    }

    public static int cores() {
        return Runtime.getRuntime().availableProcessors();
    }

    /** The machine's load when measuring: these figures are only comparable with a quiet machine's. */
    public static String loadAverage() {
        try {
            return "load average " + String.join(" ", List.of(Files.readString(Path.of("/proc/loadavg")).split(" ")).subList(0, 3));
        } catch (Exception e) {
            return "load average unknown";
        }
    }

    /** The 1-minute load average (/proc/loadavg), NaN when unknown. */
    public static double loadAverage1m() {
        try {
            return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
        } catch (Exception e) {
            return Double.NaN;
        }
    }
}
