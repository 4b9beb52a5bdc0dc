package com.telemed.common.metrics;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.testkit.quarkus.InfrastructureResource;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * An OPTIONS call that Quarkus REST answers itself (no resource method) is counted under
 * {@code uri="/UNKNOWN"}, never under its path: an id in the path would be a new series per call.
 * Found by the end-to-end bad-input property's OPTIONS calls, once they ran on the platform
 * MetricsScrapeIT scrapes.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
class UntemplatedOptionsTest {

    @Inject
    MeterRegistry registry;

    @Test
    void anOptionsCallIsCountedAsUnknownAndAMatchedCallByItsTemplate() {
        String id = UUID.randomUUID().toString();
        given().options("/probe/things/" + id).then().statusCode(200).header("Allow", containsString("GET"));
        given().get("/probe/things/" + id).then().statusCode(200);

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            List<Timer> timers = List.copyOf(registry.find("http.server.requests").timers());
            List<String> uris = timers.stream().map(timer -> timer.getId().getTag("method") + " " + timer.getId().getTag("uri")).toList();
            // Quarkus prefixes a template with the root path.
            assertTrue(uris.contains("OPTIONS /UNKNOWN"), uris.toString());
            assertTrue(uris.contains("GET /probe/things/{thingId}"), uris.toString());
            assertEquals(List.of(), uris.stream().filter(uri -> uri.contains(id)).toList());
        });
    }
}
