package com.telemed.bench.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class JcmdTest {

    @Test
    void liveHeapFromAClassHistogram() {
        Jcmd.LiveHeap live = Jcmd.LiveHeap.of("""
                12345:
                 num     #instances         #bytes  class name (module)
                -------------------------------------------------------
                   1:         67062        5242880  [B (java.base@17.0.15)
                   2:         50000        1200000  java.lang.String (java.base@17.0.15)
                   3:            10           4096  [Ljava.lang.Object; (java.base@17.0.15)
                Total        117072       19922944
                """);
        assertEquals(new Jcmd.LiveHeap(19922944, 67062, 5242880), live);
    }

    @Test
    void noTotalIsNoFigure() {
        assertNull(Jcmd.LiveHeap.of("12345:\ncom.sun.tools.attach.AttachNotSupportedException: Unable to open socket file"));
    }
}
