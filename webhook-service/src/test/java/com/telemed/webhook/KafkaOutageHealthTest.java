package com.telemed.webhook;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.telemed.testkit.quarkus.InfrastructureResource;
import com.telemed.testkit.quarkus.ManagementPort;
import com.telemed.testkit.quarkus.ServiceFoundationContract;
import com.telemed.webhook.support.Events;
import com.telemed.webhook.support.Partners;
import com.telemed.webhook.support.Receiver;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A Kafka outage does not take the service out of the load balancer: readiness (the database)
 * stays UP while the broker is gone, both platform-commons' broker check and SmallRye Kafka's
 * consumer readiness being out of it, and so does startup (a pod started meanwhile starts); the
 * outage shows in the health group {@code kafka} (503 DOWN) and in the {@code kafka_broker_reachable}
 * gauge, and both recover with the broker, as does the consumer (an event published afterwards is
 * delivered).
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
class KafkaOutageHealthTest {

    private static final String KAFKA_CHECK = ServiceFoundationContract.KAFKA_CHECK;

    private static double reachableGauge() {
        String text = ManagementPort.given().when().get("/q/metrics").then().statusCode(200).extract().asString();
        Matcher found = Pattern.compile("(?m)^kafka_broker_reachable(?:\\{[^}]*\\})? (\\S+)$").matcher(text);
        return found.find() ? Double.parseDouble(found.group(1)) : Double.NaN;
    }

    private static void readyWithoutKafka() {
        ManagementPort.given().when().get("/q/health/ready")
                .then().statusCode(200)
                .body("status", equalTo("UP"))
                .body("checks.status", everyItem(equalTo("UP")))
                .body("checks.name", hasItem(ServiceFoundationContract.DATABASE_CHECK))
                .body("checks.name", not(hasItem(KAFKA_CHECK)));
    }

    private static void kafkaGroup(int status, String state) {
        ManagementPort.given().when().get("/q/health/group/kafka")
                .then().statusCode(status)
                .body("status", equalTo(state))
                .body("checks.name", equalTo(List.of(KAFKA_CHECK)))
                .body("checks[0].status", equalTo(state));
    }

    @Test
    void aKafkaOutageLeavesTheServiceReadyAndShowsInTheKafkaGroupAndTheGauge() throws Exception {
        await().atMost(Duration.ofSeconds(15)).until(() -> reachableGauge() == 1.0);
        readyWithoutKafka();
        kafkaGroup(200, "UP");

        var kafka = InfrastructureResource.running().embeddedKafka();
        kafka.stop();
        try {
            await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> kafkaGroup(503, "DOWN"));
            await().atMost(Duration.ofSeconds(15)).until(() -> reachableGauge() == 0.0);
            // For the whole window, well past the second in which SmallRye Kafka's consumer
            // readiness turns DOWN once its connections are gone.
            await().during(Duration.ofSeconds(5)).atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                readyWithoutKafka();
                ManagementPort.given().when().get("/q/health/live").then().statusCode(200).body("status", equalTo("UP"));
                // Startup too: a pod started now must pass its startup probe (SmallRye Kafka's startup
                // check, which counts the channels' broker connections, is off for both channels).
                ManagementPort.given().when().get("/q/health/started").then().statusCode(200).body("status", equalTo("UP"));
                ManagementPort.given().when().get("/q/health").then().statusCode(200).body("status", equalTo("UP"));
            });
            // The API answers and writes while Kafka is away.
            String partner = Partners.newPartner();
            given().contentType("application/json").body("{\"url\":\"http://127.0.0.1:9/hooks\"}")
                    .when().put("/ops/v1/partners/" + partner + "/webhook")
                    .then().statusCode(200).body("url", equalTo("http://127.0.0.1:9/hooks"));
            given().when().get("/ops/v1/partners/" + partner + "/webhook/deliveries")
                    .then().statusCode(200).body("deliveries", equalTo(List.of()));
        } finally {
            kafka.start();
        }

        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> kafkaGroup(200, "UP"));
        await().atMost(Duration.ofSeconds(15)).until(() -> reachableGauge() == 1.0);
        readyWithoutKafka();
        ManagementPort.given().when().get("/q/health").then().statusCode(200).body("status", equalTo("UP"));

        // The consumer is back too (and later tests find Kafka as they expect it).
        try (Receiver receiver = Receiver.answering(200)) {
            String partner = Partners.newPartner();
            Partners.setUrl(partner, receiver.url());
            Events.publish("care.events", "r-outage", Events.envelope(Events.newId(), partner, "item.approved",
                    Events.itemApproved("r-outage")));
            await().atMost(Duration.ofSeconds(60)).until(() -> receiver.received().size() == 1);
            assertEquals(Events.itemApproved("r-outage"), receiver.received().get(0).bodyText());
        }
    }
}
