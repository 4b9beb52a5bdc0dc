package com.telemed.bench.support;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class HeapSamplerTest {

    @Test
    void peaksAndCollectionsFromJstatLines() {
        HeapSampler.Samples samples = new HeapSampler.Samples();
        samples.accept("    S0C         S1C         S0U         S1U          EC           EU           OC           OU          MC"
                + "         MU       CCSC      CCSU     YGC     YGCT     FGC    FGCT     CGC    CGCT       GCT   ");
        samples.accept("  1024.0  1024.0  0.0  512.0  8192.0  4096.0  20480.0  10240.0  35520.0  35051.6  4224.0  4004.5"
                + "  9  0.082  2  0.055  -  -  0.137");
        samples.accept("  1024.0  1024.0  0.0  0.0  8192.0  8192.0  40960.0  30720.0  35520.0  35051.6  4224.0  4004.5"
                + "  15  0.100  3  0.155  -  -  0.255");
        samples.accept("  1024.0  1024.0  0.0  0.0  8192.0  1024.0  40960.0  12288.0  35520.0  35051.6  4224.0  4004.5"
                + "  16  0.110  4  0.255  -  -  0.365");
        samples.accept("12345 not found");

        HeapSampler.Peak peak = samples.peak();

        assertEquals(3, peak.samples());
        assertEquals(38.0, peak.usedMiB(), 1e-9); // 8,192 + 30,720 KiB
        assertEquals(50.0, peak.committedMiB(), 1e-9); // 1,024 + 1,024 + 8,192 + 40,960 KiB
        assertEquals(30.0, peak.oldMiB(), 1e-9);
        assertEquals(7, peak.youngGcs());
        assertEquals(2, peak.fullGcs());
        assertEquals(0.228, peak.gcSeconds(), 1e-9);
    }

    @Test
    void noSamplesWithoutAHeader() {
        HeapSampler.Samples samples = new HeapSampler.Samples();
        samples.accept("12345 not found");
        assertEquals(0, samples.peak().samples());
        assertEquals("no heap samples (jstat failed)", samples.peak().line());
    }
}
