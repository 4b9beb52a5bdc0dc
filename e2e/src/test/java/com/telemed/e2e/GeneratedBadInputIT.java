package com.telemed.e2e;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.launcher.EngineFilter;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * The generated bad-input property ({@link GeneratedBadInputProperty}), run as the first Jupiter
 * class: jqwik's engine runs it, from here, on the shared platform it starts.
 *
 * <p>Why from a Jupiter class: the two classes that run beside the sequence (StackScriptIT and
 * PlatformStartFailureIT, {@code @Execution(CONCURRENT)}) start when Jupiter's run starts. Run by
 * its own engine before Jupiter's, the property had the cores to itself and left 15 to 37 % of them
 * idle (its calls go one at a time, each checked against the tables), and the two started beside
 * RequestsReplicasIT, where the cores are saturated. Run from here, they start with the property,
 * at a lower CPU priority, in what it leaves idle.
 *
 * <p>The property runs exactly as jqwik runs it on its own: the launcher reads the same
 * configuration ({@code junit-platform.properties}, system properties such as {@code fuzz.seed}).
 * jqwik's report entries (the seed, the counts, a falsified sample and its shrinking) are printed
 * as jqwik's own console reporter prints them, and a failure of the property fails this test with
 * jqwik's exception (its message names the sample) and the report as its message.
 */
@Order(0)
class GeneratedBadInputIT {

    @Test
    void theGeneratedBadInputPropertyHolds() {
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                .selectors(selectClass(GeneratedBadInputProperty.class))
                .filters(EngineFilter.includeEngines("jqwik"))
                .build();
        Outcome outcome = new Outcome();
        Launcher launcher = LauncherFactory.create();
        launcher.execute(request, outcome);
        outcome.assertRanAndPassed();
    }

    /** What jqwik's run reported and how its property ended. */
    private static final class Outcome implements TestExecutionListener {

        private final List<String> reports = new ArrayList<>();
        private final List<Throwable> failures = new ArrayList<>();
        private int properties;

        @Override
        public void reportingEntryPublished(TestIdentifier identifier, ReportEntry entry) {
            String report = identifier.getDisplayName() + ": " + entry.getKeyValuePairs();
            System.out.println(report);
            reports.add(report);
        }

        @Override
        public void executionFinished(TestIdentifier identifier, TestExecutionResult result) {
            if (identifier.isTest()) {
                properties++;
            }
            if (result.getStatus() != TestExecutionResult.Status.SUCCESSFUL) {
                failures.add(result.getThrowable().orElseGet(() -> new AssertionError(identifier.getDisplayName() + " "
                        + result.getStatus())));
            }
        }

        void assertRanAndPassed() {
            if (!failures.isEmpty()) {
                AssertionError failed = new AssertionError("the generated bad-input property failed:\n"
                        + String.join("\n", reports), failures.get(0));
                failures.stream().skip(1).forEach(failed::addSuppressed);
                throw failed;
            }
            if (properties != 1) {
                throw new AssertionError("jqwik ran " + properties + " properties of " + GeneratedBadInputProperty.class.getSimpleName()
                        + ", not its one (is the jqwik engine on the classpath?)");
            }
        }
    }
}
