package com.telemed.testkit.quarkus;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.DriverManager;
import java.util.List;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

/**
 * What every service shows on its own: it is live, it is ready with its database (checked against
 * the real server) and without Kafka in readiness (a broker outage must not take the API down),
 * Kafka's state has its own health group, {@code /q/health/group/kafka}, in a service that uses
 * Kafka and no Kafka check at all in one that does not ({@link #usesKafka}), and Flyway, not
 * Hibernate, built its schema. A service test class extends this under {@code @QuarkusTest}.
 */
public abstract class ServiceFoundationContract {

    public static final String DATABASE_CHECK = "Database connections health check";
    public static final String KAFKA_CHECK = "Kafka broker";

    /** False for a service that never uses Kafka (the gateway): it carries no Kafka check. */
    protected boolean usesKafka() {
        return true;
    }

    @Test
    void isLive() {
        given().when().get("/q/health/live")
                .then().statusCode(200).body("status", equalTo("UP"));
    }

    @Test
    void isReadyWithItsDatabaseAndWithoutKafka() {
        given().when().get("/q/health/ready")
                .then().statusCode(200)
                .body("status", equalTo("UP"))
                .body("checks.name", hasItem(DATABASE_CHECK))
                .body("checks.find { it.name == '" + DATABASE_CHECK + "' }.status", equalTo("UP"))
                .body("checks.name", not(hasItem(KAFKA_CHECK)));
    }

    @Test
    void kafkaIsItsOwnHealthGroup() {
        if (usesKafka()) {
            given().when().get("/q/health/group/kafka")
                    .then().statusCode(200)
                    .body("status", equalTo("UP"))
                    .body("checks.name", equalTo(List.of(KAFKA_CHECK)))
                    .body("checks[0].status", equalTo("UP"));
        } else {
            given().when().get("/q/health/group/kafka")
                    .then().body("checks.name", not(hasItem(KAFKA_CHECK)));
            given().when().get("/q/health/group")
                    .then().body("checks.name", not(hasItem(KAFKA_CHECK)));
        }
        given().when().get("/q/health")
                .then().body("checks.name", not(hasItem(KAFKA_CHECK)));
    }

    @Test
    void ownsAFlywayMigratedDatabase() throws Exception {
        var config = ConfigProvider.getConfig();
        try (var connection = DriverManager.getConnection(
                config.getValue("quarkus.datasource.jdbc.url", String.class),
                config.getValue("quarkus.datasource.username", String.class),
                config.getValue("quarkus.datasource.password", String.class));
             var rows = connection.createStatement().executeQuery(
                     "SELECT version, success FROM flyway_schema_history WHERE version = '1'")) {
            assertTrue(rows.next(), "V1 migration recorded");
            assertEquals("1", rows.getString("version"));
            assertTrue(rows.getBoolean("success"));
        }
    }

    @Test
    void answersUnknownPathsWithJson() {
        given().when().get("/no/such/path")
                .then().statusCode(404)
                .contentType("application/json")
                .body("error", equalTo("Not Found"));
    }
}
