package com.telemed.e2e;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * When the classes that run beside the sequence on the shared platform ({@code @Execution(CONCURRENT)}:
 * {@link StackScriptIT}, {@link PlatformStartFailureIT}) begin: once {@link RequestsReplicasIT}, the
 * sequence's first class, has ended. It is the sequence's busiest class (two replicas, 200 approvals
 * and 100 bookings against a deadline it measured, then restarts), and a {@code ./stack up} and a
 * failing platform beside it cost it about 40 s; the classes after it leave the cores half idle.
 *
 * <p>A JUnit Platform listener (registered in {@code META-INF/services}): it opens the gate when
 * that class ends, whatever its outcome, is skipped, or is not in the run at all.
 */
public final class BesideTheSequence implements TestExecutionListener {

    /** Longer than the first class could take; a gate that never opened lets the classes go on anyway. */
    private static final Duration AT_MOST = Duration.ofMinutes(20);
    private static final String FIRST = RequestsReplicasIT.class.getName();
    private static final CountDownLatch FIRST_CLASS_OVER = new CountDownLatch(1);
    private static final System.Logger LOG = System.getLogger(BesideTheSequence.class.getName());

    /** Waits until the sequence's first class has ended (see the class's comment). */
    static void awaitFirstClass(String who) throws InterruptedException {
        long began = System.nanoTime();
        boolean opened = FIRST_CLASS_OVER.await(AT_MOST.toMillis(), TimeUnit.MILLISECONDS);
        LOG.log(System.Logger.Level.INFO, who + " waited " + Duration.ofNanos(System.nanoTime() - began).toMillis()
                + " ms for " + FIRST + (opened ? "" : " (not over after " + AT_MOST + "; going on)"));
    }

    @Override
    public void testPlanExecutionStarted(TestPlan plan) {
        boolean planned = plan.getRoots().stream().flatMap(root -> plan.getDescendants(root).stream())
                .anyMatch(BesideTheSequence::isFirst);
        if (!planned) {
            FIRST_CLASS_OVER.countDown();
        }
    }

    @Override
    public void executionFinished(TestIdentifier identifier, TestExecutionResult result) {
        if (isFirst(identifier)) {
            FIRST_CLASS_OVER.countDown();
        }
    }

    @Override
    public void executionSkipped(TestIdentifier identifier, String reason) {
        if (isFirst(identifier)) {
            FIRST_CLASS_OVER.countDown();
        }
    }

    @Override
    public void testPlanExecutionFinished(TestPlan plan) {
        FIRST_CLASS_OVER.countDown();
    }

    private static boolean isFirst(TestIdentifier identifier) {
        return identifier.getSource().filter(ClassSource.class::isInstance)
                .map(source -> ((ClassSource) source).getClassName().equals(FIRST)).orElse(false);
    }
}
