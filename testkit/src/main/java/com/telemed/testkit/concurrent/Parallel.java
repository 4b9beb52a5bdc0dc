package com.telemed.testkit.concurrent;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Setup and checks of end-to-end tests run as several clients would: a step applied to every
 * input on a fixed number of threads, the results in input order. The first failing step's
 * exception is rethrown as it was (an assertion error stays one); each step has five minutes.
 */
public final class Parallel {

    private static final long STEP_TIMEOUT_MINUTES = 5;

    private Parallel() {
    }

    /** One step of a parallel run: may call the platform and throw. */
    @FunctionalInterface
    public interface Step<T, R> {
        R apply(T input) throws Exception;
    }

    public static <T, R> List<R> map(int clients, List<T> inputs, Step<T, R> step) throws Exception {
        return run(clients, inputs, step, null);
    }

    /**
     * A race: {@code callers} calls of {@code call} (given the caller's index), each on its own thread,
     * all released together once every thread is ready; their results in caller order.
     */
    public static <R> List<R> atOnce(int callers, Step<Integer, R> call) throws Exception {
        List<Integer> indexes = new ArrayList<>();
        for (int index = 0; index < callers; index++) {
            indexes.add(index);
        }
        return run(callers, indexes, call, new CountDownLatch(1));
    }

    private static <T, R> List<R> run(int clients, List<T> inputs, Step<T, R> step, CountDownLatch start) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        try {
            List<Future<R>> futures = new ArrayList<>();
            for (T input : inputs) {
                futures.add(pool.submit(() -> {
                    if (start != null) {
                        start.await();
                    }
                    return step.apply(input);
                }));
            }
            if (start != null) {
                start.countDown();
            }
            List<R> results = new ArrayList<>();
            for (Future<R> future : futures) {
                try {
                    results.add(future.get(STEP_TIMEOUT_MINUTES, TimeUnit.MINUTES));
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof Exception cause) {
                        throw cause;
                    }
                    if (e.getCause() instanceof Error error) {
                        throw error;
                    }
                    throw new AssertionError(e.getCause());
                }
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }
}
