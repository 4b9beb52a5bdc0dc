package com.telemed.e2e;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.testkit.e2e.RunningPlatform;
import com.telemed.testkit.platform.Platform;
import com.telemed.testkit.platform.PlatformService;
import java.time.Duration;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The whole platform, started as ./stack starts it: every service ready, and ready only with Kafka. */
@ExtendWith(RunningPlatform.class)
class PlatformReadinessTest {

    @Test
    void everyServiceIsReadyWithItsDatabaseAndKafka(RunningPlatform.Handle platform) {
        for (PlatformService service : PlatformService.values()) {
            given().baseUri(platform.url(service).toString())
                    .when().get("/q/health/ready")
                    .then().statusCode(200)
                    .body("status", equalTo("UP"))
                    .body("checks.find { it.name == 'Database connections health check' }.status", equalTo("UP"))
                    .body("checks.find { it.name == 'Kafka broker' }.status", equalTo("UP"));
        }
    }

    @Test
    void servicesAreNotReadyWhileKafkaIsDownAndRecoverAfter(RunningPlatform.Handle platform) {
        var kafka = platform.infrastructure().embeddedKafka();
        kafka.stop();
        try {
            for (PlatformService service : PlatformService.values()) {
                assertTrue(eventually(platform, service, ready -> !ready),
                        service.module() + " still ready with Kafka down");
            }
            given().baseUri(platform.url(PlatformService.MEMBERS).toString())
                    .when().get("/q/health/ready")
                    .then().statusCode(503)
                    .body("checks.find { it.name == 'Kafka broker' }.status", equalTo("DOWN"))
                    .body("checks.find { it.name == 'Database connections health check' }.status", equalTo("UP"));
        } finally {
            kafka.start();
        }
        for (PlatformService service : PlatformService.values()) {
            assertTrue(eventually(platform, service, ready -> ready), service.module() + " not ready again");
        }
        for (PlatformService service : PlatformService.values()) {
            assertEquals(200, given().baseUri(platform.url(service).toString()).get("/q/health/live").statusCode());
        }
    }

    private static boolean eventually(RunningPlatform.Handle platform, PlatformService service, Predicate<Boolean> wanted) {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            if (wanted.test(Platform.isReady(platform.url(service)))) {
                return true;
            }
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return false;
    }
}
