package com.telemed.common.concurrent;

import com.telemed.common.request.RequestIds;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Supplier;
import org.jboss.logging.MDC;

/**
 * An executor that runs each task on another executor with the request id and the partner id of
 * the call that submitted it ({@link RequestIds#MDC_KEY}, {@link RequestIds#PARTNER_MDC_KEY}) in
 * the task's log context, so what the task logs names the call it works for.
 *
 * <p>The ids are read when the task is submitted, on the submitting thread. The task runs with
 * exactly those ids (none when the call had none: a pooled thread's leftover id never shows), and
 * afterwards the thread's log context is as it was before: its own ids put back, or none. That
 * holds when the task throws, and when the delegate runs the task on the submitting thread.
 *
 * <p>Wrap the executor the service already has (for example Quarkus's {@code ManagedExecutor},
 * whose own context propagation then still applies): {@code new LogContextExecutor(managedExecutor)}.
 */
public final class LogContextExecutor implements Executor {

    private final Executor delegate;

    public LogContextExecutor(Executor delegate) {
        this.delegate = delegate;
    }

    @Override
    public void execute(Runnable task) {
        Object requestId = MDC.get(RequestIds.MDC_KEY);
        Object partnerId = MDC.get(RequestIds.PARTNER_MDC_KEY);
        delegate.execute(() -> {
            Object previousRequest = MDC.get(RequestIds.MDC_KEY);
            Object previousPartner = MDC.get(RequestIds.PARTNER_MDC_KEY);
            put(RequestIds.MDC_KEY, requestId);
            put(RequestIds.PARTNER_MDC_KEY, partnerId);
            try {
                task.run();
            } finally {
                put(RequestIds.MDC_KEY, previousRequest);
                put(RequestIds.PARTNER_MDC_KEY, previousPartner);
            }
        });
    }

    /** {@code task}'s value, computed on the delegate with this call's request and partner ids in the log context. */
    public <T> CompletableFuture<T> supplyAsync(Supplier<T> task) {
        return CompletableFuture.supplyAsync(task, this);
    }

    private static void put(String key, Object value) {
        if (value == null) {
            MDC.remove(key);
        } else {
            MDC.put(key, value);
        }
    }
}
