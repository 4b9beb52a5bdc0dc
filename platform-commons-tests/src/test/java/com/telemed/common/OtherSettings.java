package com.telemed.common;

import com.telemed.common.traces.OtlpCollector;
import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.List;
import java.util.Map;

/**
 * The one application of this module's tests with settings other than its defaults, so that the
 * cases needing them cost one boot rather than one each:
 * <ul>
 *   <li>JSON console lines, as a deployment has them (platform-commons' defaults turn them off only
 *       under dev, test and local): {@code request.JsonLogLinesTest};</li>
 *   <li>spans exported to an OTLP collector, named by the endpoint alone ({@link OtlpCollector}, a test
 *       resource of this profile): {@code traces.TracesExportTest};</li>
 *   <li>an outbox relay that polls once an hour, so that only a commit's wake-up can publish within a
 *       test's wait: {@code outbox.OutboxWakeTest}.</li>
 * </ul>
 * None of the three bears on what the other two tests check. The outbox switched off
 * ({@code outbox.OutboxDisabledTest}) removes beans the others need, and keeps a boot of its own.
 */
public class OtherSettings implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of(
                "%test.quarkus.log.console.json.enabled", "true", "quarkus.log.console.json.enabled", "true",
                "platform.outbox.poll-interval", "1h");
    }

    @Override
    public List<TestResourceEntry> testResources() {
        return List.of(new TestResourceEntry(OtlpCollector.class));
    }
}
