package com.telemed.common.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;

/**
 * A periodic job's {@code job_runs_total{job}} and {@code job_failures_total{job}}: one run per
 * tick, poll or batch; a failure is a run that threw or left the job's dependency failing (its
 * {@link com.telemed.common.error.FailureLog} not recovered). The job names are fixed strings
 * ({@code outbox-relay}, {@code fulfilment-dispatcher}, ...), never data.
 *
 * <p>Registered in Micrometer's global registry, which Quarkus joins to its Prometheus registry:
 * jobs are plain objects built in constructors ({@link com.telemed.common.concurrent.Ticker}),
 * not beans that could be given the registry.
 */
public final class JobMetrics {

    private final Counter runs;
    private final Counter failures;

    private JobMetrics(MeterRegistry registry, String job) {
        this.runs = Counter.builder("job.runs").description("Runs of a periodic job").tag("job", job).register(registry);
        this.failures = Counter.builder("job.failures").description("Runs of a periodic job that failed")
                .tag("job", job).register(registry);
    }

    public static JobMetrics of(String job) {
        return of(Metrics.globalRegistry, job);
    }

    public static JobMetrics of(MeterRegistry registry, String job) {
        return new JobMetrics(registry, job);
    }

    /** One run ended, failed or not. */
    public void ran(boolean failed) {
        runs.increment();
        if (failed) {
            failures.increment();
        }
    }
}
