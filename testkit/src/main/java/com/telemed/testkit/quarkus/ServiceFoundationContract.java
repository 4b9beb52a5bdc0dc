package com.telemed.testkit.quarkus;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.DriverManager;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

/**
 * What every service shows on its own: it is live, it is ready only with its database and the
 * Kafka broker reachable (both checked against the real servers), and Flyway, not Hibernate,
 * built its schema. A service test class extends this under {@code @QuarkusTest}.
 */
public abstract class ServiceFoundationContract {

    @Test
    void isLive() {
        given().when().get("/q/health/live")
                .then().statusCode(200).body("status", equalTo("UP"));
    }

    @Test
    void isReadyWithItsDatabaseAndKafkaUp() {
        given().when().get("/q/health/ready")
                .then().statusCode(200)
                .body("status", equalTo("UP"))
                .body("checks.name", hasItem("Database connections health check"))
                .body("checks.name", hasItem("Kafka broker"))
                .body("checks.find { it.name == 'Database connections health check' }.status", equalTo("UP"))
                .body("checks.find { it.name == 'Kafka broker' }.status", equalTo("UP"));
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
