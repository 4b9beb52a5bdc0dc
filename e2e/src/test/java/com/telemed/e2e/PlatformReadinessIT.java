package com.telemed.e2e;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;

import com.telemed.testkit.e2e.RunningPlatform;
import com.telemed.testkit.platform.PlatformService;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The whole platform, started as ./stack starts it: every service ready with its database (the web
 * service, which has none, without one), none
 * with Kafka in readiness (a broker outage must not pull the pods from the load balancer); every
 * service that uses Kafka shows the broker in its health group {@code kafka} (billing too, since its
 * ledger consumes care.events and member.events; catalogue too, since it publishes catalogue.events);
 * the gateway and the web service (which neither publish nor consume) have no Kafka check at all.
 */
@ExtendWith(RunningPlatform.class)
class PlatformReadinessIT {

    private static final String DATABASE = "Database connections health check";
    private static final String KAFKA = "Kafka broker";
    /** Services that neither publish nor consume: no Kafka client, no Kafka check. */
    private static final Set<PlatformService> WITHOUT_KAFKA = EnumSet.of(PlatformService.GATEWAY, PlatformService.WEB);

    private static void readyWithoutKafka(RunningPlatform.Handle platform, PlatformService service) {
        var ready = given().baseUri(platform.managementUrl(service).toString())
                .when().get("/q/health/ready")
                .then().statusCode(200)
                .body("status", equalTo("UP"))
                .body("checks.name", not(hasItem(KAFKA)));
        if (service.hasDatabase()) {
            ready.body("checks.find { it.name == '" + DATABASE + "' }.status", equalTo("UP"));
        } else {
            // The web service has no database of its own (it calls the others): no database check either.
            ready.body("checks.name", not(hasItem(DATABASE)));
        }
    }

    private static void kafkaGroup(RunningPlatform.Handle platform, PlatformService service, int status, String state) {
        if (WITHOUT_KAFKA.contains(service)) {
            given().baseUri(platform.managementUrl(service).toString())
                    .when().get("/q/health/group/kafka")
                    .then().body("checks.name", not(hasItem(KAFKA)));
            return;
        }
        given().baseUri(platform.managementUrl(service).toString())
                .when().get("/q/health/group/kafka")
                .then().statusCode(status)
                .body("status", equalTo(state))
                .body("checks.name", equalTo(List.of(KAFKA)))
                .body("checks[0].status", equalTo(state));
    }

    @Test
    void everyServiceIsReadyWithItsDatabaseAndShowsKafkaInItsOwnGroup(RunningPlatform.Handle platform) {
        for (PlatformService service : PlatformService.values()) {
            readyWithoutKafka(platform, service);
            kafkaGroup(platform, service, 200, "UP");
        }
    }

    @Test
    void servicesStayReadyWhileKafkaIsDownAndTheKafkaGroupShowsTheOutage(RunningPlatform.Handle platform) {
        var kafka = platform.infrastructure().embeddedKafka();
        kafka.stop();
        try {
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                for (PlatformService service : PlatformService.values()) {
                    kafkaGroup(platform, service, 503, "DOWN");
                }
            });
            await().during(Duration.ofSeconds(5)).atMost(Duration.ofSeconds(15)).untilAsserted(() -> {
                for (PlatformService service : PlatformService.values()) {
                    readyWithoutKafka(platform, service);
                    given().baseUri(platform.managementUrl(service).toString()).when().get("/q/health/live")
                            .then().statusCode(200);
                }
            });
        } finally {
            kafka.start();
        }
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            for (PlatformService service : PlatformService.values()) {
                kafkaGroup(platform, service, 200, "UP");
                readyWithoutKafka(platform, service);
            }
        });
    }
}
