package com.telemed.requests.input;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.restassured.response.Response;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import org.eclipse.microprofile.config.ConfigProvider;

/** Exact 400 bodies of refused input, and the rows a refused call must leave alone. */
final class Refusals {

    private Refusals() {
    }

    static String invalidCharacter(String path) {
        return "{\"code\":\"custom\",\"path\":" + path + ",\"message\":\"Invalid character\"}";
    }

    static String tooLong(String path, int maximum) {
        return "{\"code\":\"too_big\",\"maximum\":" + maximum + ",\"type\":\"string\",\"inclusive\":true,\"exact\":false,"
                + "\"path\":" + path + ",\"message\":\"String must contain at most " + maximum + " character(s)\"}";
    }

    static String tooBig(String path, long maximum) {
        return "{\"code\":\"too_big\",\"maximum\":" + maximum + ",\"type\":\"number\",\"inclusive\":true,\"exact\":false,"
                + "\"path\":" + path + ",\"message\":\"Number must be less than or equal to " + maximum + "\"}";
    }

    static String tooSmall(String path, long minimum) {
        return "{\"code\":\"too_small\",\"minimum\":" + minimum + ",\"type\":\"number\",\"inclusive\":true,\"exact\":false,"
                + "\"path\":" + path + ",\"message\":\"Number must be greater than or equal to " + minimum + "\"}";
    }

    static String tooManyDecimals(String path) {
        return "{\"code\":\"not_multiple_of\",\"multipleOf\":0.000001,\"path\":" + path
                + ",\"message\":\"Number must be a multiple of 0.000001\"}";
    }

    static String custom(String path, String message) {
        return "{\"code\":\"custom\",\"path\":" + path + ",\"message\":\"" + message + "\"}";
    }

    static String invalidDatetime(String path) {
        return "{\"code\":\"invalid_string\",\"validation\":\"datetime\",\"path\":" + path + ",\"message\":\"Invalid datetime\"}";
    }

    static void assertRefused(Response response, String... issues) {
        response.then().statusCode(400).contentType("application/json");
        assertEquals("{\"error\":[" + String.join(",", issues) + "]}", response.asString());
    }

    /** One number from the service's database, e.g. {@code count(*)} of rows a call must not have written. */
    static long count(String sql, Object... parameters) {
        var config = ConfigProvider.getConfig();
        try (Connection connection = DriverManager.getConnection(
                config.getValue("quarkus.datasource.jdbc.url", String.class),
                config.getValue("quarkus.datasource.username", String.class),
                config.getValue("quarkus.datasource.password", String.class));
             var statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            try (var result = statement.executeQuery()) {
                result.next();
                return result.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
