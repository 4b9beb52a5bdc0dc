package com.telemed.testkit.concurrent;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * This module's test JVMs run at the niceness its pom asks for ({@code tests.nice}, 10), set by the
 * session listener before the first test: the thread running a test has it, and so has a thread it
 * starts and a process it starts (the servers the kit's tests start are such processes).
 */
class TestJvmPriorityTest {

    @Test
    void theModulesTestJvmRunsAtTheNicenessItsPomAsksFor() throws Exception {
        assertEquals("10", System.getProperty(TestJvmPriority.PROPERTY), "the pom's tests.nice");
        assertEquals(10, TestJvmPriority.currentThreadNiceness(), "the thread running the test");

        AtomicInteger started = new AtomicInteger(-1);
        Thread thread = new Thread(() -> {
            try {
                started.set(TestJvmPriority.currentThreadNiceness());
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        thread.start();
        thread.join();
        assertEquals(10, started.get(), "a thread the test starts");

        Process child = new ProcessBuilder("sh", "-c", "cut -d' ' -f19 /proc/self/stat").start();
        String childNice = new String(child.getInputStream().readAllBytes()).trim();
        assertEquals(0, child.waitFor());
        assertEquals("10", childNice, "a process the test starts");
    }
}
