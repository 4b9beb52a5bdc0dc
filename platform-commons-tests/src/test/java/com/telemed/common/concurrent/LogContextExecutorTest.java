package com.telemed.common.concurrent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.telemed.common.request.RequestIds;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.MDC;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The request id travels with each task, and every thread's log context is left as it was found. */
class LogContextExecutorTest {

    private static final String KEY = RequestIds.MDC_KEY;

    private ExecutorService worker;
    private LogContextExecutor executor;

    @BeforeEach
    void startWorker() throws Exception {
        MDC.clear();
        worker = Executors.newSingleThreadExecutor();
        // The worker thread exists before any test puts an id: a log context the thread inherited
        // at its creation must not pass for one the executor carried.
        worker.submit(() -> { }).get(10, TimeUnit.SECONDS);
        executor = new LogContextExecutor(worker);
    }

    @AfterEach
    void stopWorker() {
        worker.shutdownNow();
        MDC.clear();
    }

    /** The worker thread's own request id, read without the executor. */
    private String onWorker() throws Exception {
        return (String) worker.submit(() -> MDC.get(KEY)).get(10, TimeUnit.SECONDS);
    }

    private void putOnWorker(String requestId) throws Exception {
        worker.submit(() -> MDC.put(KEY, requestId)).get(10, TimeUnit.SECONDS);
    }

    private static <T> T join(CompletableFuture<T> future) throws Exception {
        return future.get(10, TimeUnit.SECONDS);
    }

    @Test
    void theTaskRunsOnTheDelegateWithTheSubmittingCallsRequestId() throws Exception {
        MDC.put(KEY, "req-1");
        String thread = Thread.currentThread().getName();
        assertEquals("req-1", join(executor.supplyAsync(() -> MDC.get(KEY))));
        assertNotEquals(thread, join(executor.supplyAsync(() -> Thread.currentThread().getName())));
        assertEquals("req-1", MDC.get(KEY), "the caller's own log context is untouched");
    }

    @Test
    void thePartnerIdTravelsWithTheRequestIdAndIsGoneAfterwards() throws Exception {
        MDC.put(KEY, "req-p");
        MDC.put(RequestIds.PARTNER_MDC_KEY, "partner-p");
        assertEquals("req-p partner-p",
                join(executor.supplyAsync(() -> MDC.get(KEY) + " " + MDC.get(RequestIds.PARTNER_MDC_KEY))));
        assertNull(worker.submit(() -> MDC.get(RequestIds.PARTNER_MDC_KEY)).get(10, TimeUnit.SECONDS));
        MDC.remove(RequestIds.PARTNER_MDC_KEY);
        worker.submit(() -> MDC.put(RequestIds.PARTNER_MDC_KEY, "left-over-partner")).get(10, TimeUnit.SECONDS);
        assertNull(join(executor.supplyAsync(() -> MDC.get(RequestIds.PARTNER_MDC_KEY))), "no partner: none, not the worker's");
        assertEquals("left-over-partner", worker.submit(() -> MDC.get(RequestIds.PARTNER_MDC_KEY)).get(10, TimeUnit.SECONDS));
    }

    @Test
    void afterTheTaskTheWorkerHasNoRequestIdLeftOver() throws Exception {
        MDC.put(KEY, "req-2");
        join(executor.supplyAsync(() -> MDC.get(KEY)));
        assertNull(onWorker());
    }

    @Test
    void aCallWithoutARequestIdRunsTheTaskWithoutOneNotWithTheWorkersLeftover() throws Exception {
        putOnWorker("left-over");
        assertNull(join(executor.supplyAsync(() -> MDC.get(KEY))));
        assertEquals("left-over", onWorker(), "the worker's own id is put back after the task");
    }

    @Test
    void theWorkersOwnRequestIdIsRestoredAfterTheTask() throws Exception {
        putOnWorker("worker-own");
        MDC.put(KEY, "req-3");
        assertEquals("req-3", join(executor.supplyAsync(() -> MDC.get(KEY))));
        assertEquals("worker-own", onWorker());
    }

    @Test
    void theIdIsTheOneAtSubmissionNotAtRun() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        // Holds the worker, so the next task is submitted now and runs later.
        worker.execute(() -> {
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        MDC.put(KEY, "at-submission");
        CompletableFuture<Object> seen = executor.supplyAsync(() -> MDC.get(KEY));
        MDC.put(KEY, "later");
        release.countDown();
        assertEquals("at-submission", join(seen));
    }

    @Test
    void aTaskThatThrowsFailsItsFutureWithThatExceptionAndStillRestoresTheContext() throws Exception {
        putOnWorker("worker-own");
        MDC.put(KEY, "req-4");
        IllegalStateException thrown = new IllegalStateException("task failed");
        CompletableFuture<Object> failed = executor.supplyAsync(() -> {
            throw thrown;
        });
        CompletionException e = assertThrows(CompletionException.class, failed::join);
        assertSame(thrown, e.getCause());
        assertEquals("worker-own", onWorker());
    }

    @Test
    void aTaskRunOnTheSubmittingThreadLeavesThatThreadsContextAsItWas() {
        LogContextExecutor direct = new LogContextExecutor(Runnable::run);
        MDC.put(KEY, "caller");
        direct.execute(() -> {
            assertEquals("caller", MDC.get(KEY));
            MDC.put(KEY, "changed-by-task");
        });
        assertEquals("caller", MDC.get(KEY));

        MDC.remove(KEY);
        direct.execute(() -> MDC.put(KEY, "changed-by-task"));
        assertNull(MDC.get(KEY));

        MDC.put(KEY, "caller");
        assertThrows(IllegalStateException.class, () -> direct.execute(() -> {
            throw new IllegalStateException("failed on the caller's thread");
        }));
        assertEquals("caller", MDC.get(KEY));
    }
}
