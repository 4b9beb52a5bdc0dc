package com.telemed.bench.support;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class CpuBusyTest {

    @Test
    void idleAndIowaitAreNotBusyAndGuestColumnsAreNotCountedTwice() {
        // user nice system idle iowait irq softirq steal guest guest_nice (guest is already in user)
        assertArrayEquals(new long[] {10 + 2 + 5 + 1 + 1 + 4, 10 + 2 + 5 + 100 + 3 + 1 + 1 + 4},
                CpuBusy.ticks("cpu1 10 2 5 100 3 1 1 4 7 7"));
    }

    @Test
    void eachCpusShareOfItsOwnTicks() {
        CpuBusy.Snapshot before = new CpuBusy.Snapshot(List.of(new long[] {100, 1000}, new long[] {50, 1000}));
        CpuBusy.Snapshot after = new CpuBusy.Snapshot(List.of(new long[] {190, 1100}, new long[] {75, 1100}));
        double[] busy = CpuBusy.busy(before, after);
        assertEquals(90.0, busy[0], 1e-9);
        assertEquals(25.0, busy[1], 1e-9);
        assertEquals("CPU 0 90 % busy, CPU 1 25 %", CpuBusy.describe(before, after));
    }
}
