package com.telemed.webhook.delivery;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.testkit.quarkus.InfrastructureResource;
import com.telemed.testkit.quarkus.ManagementPort;
import com.telemed.webhook.support.Events;
import com.telemed.webhook.support.Partners;
import com.telemed.webhook.support.Receiver;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
class MetricsTest {

    /**
     * The sample's value. A line may end with an OpenMetrics exemplar after the value ({@code 311.0 # {span_id=...,
     * trace_id=...} 1.0 1796025729.047}: an attempt made inside a sampled trace); before it was allowed for, such a
     * line read as 0 and the wait below timed out with "no successful attempt" (three loaded builds, 2026-11-28 to 30).
     */
    static double metric(String name, String labels) {
        String text = ManagementPort.given().when().get("/q/metrics").then().statusCode(200).extract().asString();
        return value(text, name, labels);
    }

    static double value(String scrape, String name, String labels) {
        Matcher found = Pattern.compile("(?m)^" + Pattern.quote(name + "{" + labels) + "[^}]*\\} ([0-9.E+-]+)(?: # .*)?$").matcher(scrape);
        return found.find() ? Double.parseDouble(found.group(1)) : 0;
    }

    @Test
    void aValueIsReadWithOrWithoutAnExemplar() {
        String scrape = """
                webhook_attempt_duration_seconds_count{result="failure"} 131.0
                webhook_attempt_duration_seconds_count{result="success"} 311.0 # {span_id="fba394c48a3099c6",trace_id="454f1b7cf7414a672c715dc146b18738"} 1.0 1796025729.047
                """;
        assertEquals(131.0, value(scrape, "webhook_attempt_duration_seconds_count", "result=\"failure\""));
        assertEquals(311.0, value(scrape, "webhook_attempt_duration_seconds_count", "result=\"success\""));
        assertEquals(0.0, value(scrape, "webhook_deliveries_total", "outcome=\"delivered\""));
    }

    /** The scrape's lines of these metrics but their buckets, for a failure's message. */
    private static String lines(String prefix) {
        String text = ManagementPort.given().when().get("/q/metrics").then().statusCode(200).extract().asString();
        return text.lines().filter(line -> line.startsWith(prefix) && !line.contains("_bucket")).toList().toString();
    }

    @Test
    void deliveriesByOutcomeAndAttemptLatency() throws Exception {
        double delivered = metric("webhook_deliveries_total", "outcome=\"delivered\"");
        double retried = metric("webhook_deliveries_total", "outcome=\"retried\"");
        double dropped = metric("webhook_deliveries_total", "outcome=\"dropped\"");
        double attempts = metric("webhook_attempt_duration_seconds_count", "result=\"success\"");
        double failedAttempts = metric("webhook_attempt_duration_seconds_count", "result=\"failure\"");
        try (Receiver receiver = new Receiver(200, 500)) {
            String partner = Partners.newPartner();
            Partners.setUrl(partner, receiver.url());
            Events.publish("care.events", "r-m", Events.envelope(Events.newId(), partner, "item.approved", Events.itemApproved("r-m")),
                    Events.envelope(Events.newId(), Partners.newPartner(), "item.approved", Events.itemApproved("r-m")));
            assertTrue(receiver.await(2, 15_000));
            // Every counter reached (the dropped event may be consumed after the other's delivery is
            // done, in a later batch, and a loaded build once took more than 5 s to get there); then each
            // must be exactly one more, so an extra one still fails.
            // The message names the counters as they were and the scrape's lines, to tell why a wait timed out
            // (three did, all from an exemplar after the value: metric's comment).
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                double[] now = {metric("webhook_deliveries_total", "outcome=\"delivered\"") - delivered,
                        metric("webhook_deliveries_total", "outcome=\"retried\"") - retried,
                        metric("webhook_deliveries_total", "outcome=\"dropped\"") - dropped,
                        metric("webhook_attempt_duration_seconds_count", "result=\"success\"") - attempts,
                        metric("webhook_attempt_duration_seconds_count", "result=\"failure\"") - failedAttempts};
                assertTrue(Arrays.stream(now).allMatch(delta -> delta >= 1), "since the start: delivered " + now[0]
                        + ", retried " + now[1] + ", dropped " + now[2] + ", successful attempts " + now[3]
                        + ", failed attempts " + now[4] + "; the scrape's lines: " + lines("webhook_"));
            });
        }
        assertEquals(delivered + 1, metric("webhook_deliveries_total", "outcome=\"delivered\""));
        assertEquals(retried + 1, metric("webhook_deliveries_total", "outcome=\"retried\""));
        assertEquals(dropped + 1, metric("webhook_deliveries_total", "outcome=\"dropped\""));
        assertEquals(attempts + 1, metric("webhook_attempt_duration_seconds_count", "result=\"success\""));
        assertEquals(failedAttempts + 1, metric("webhook_attempt_duration_seconds_count", "result=\"failure\""));
    }
}
