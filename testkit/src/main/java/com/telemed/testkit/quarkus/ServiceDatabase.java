package com.telemed.testkit.quarkus;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Plain JDBC on the database of the service under test (its {@code quarkus.datasource.*}), for a
 * {@code @QuarkusTest} to assert on rows (what a refused call must not have written) and to stage
 * them. Each call opens and closes its own connection.
 */
public final class ServiceDatabase {

    private ServiceDatabase() {
    }

    public static Connection connect() throws SQLException {
        var config = ConfigProvider.getConfig();
        return DriverManager.getConnection(
                config.getValue("quarkus.datasource.jdbc.url", String.class),
                config.getValue("quarkus.datasource.username", String.class),
                config.getValue("quarkus.datasource.password", String.class));
    }

    /** Every row, each a map of column label to value in the select's order. */
    public static List<Map<String, Object>> rows(String sql, Object... parameters) {
        try (Connection connection = connect(); PreparedStatement statement = prepare(connection, sql, parameters);
             ResultSet result = statement.executeQuery()) {
            List<Map<String, Object>> rows = new ArrayList<>();
            int columns = result.getMetaData().getColumnCount();
            while (result.next()) {
                Map<String, Object> row = new LinkedHashMap<>();
                for (int c = 1; c <= columns; c++) {
                    row.put(result.getMetaData().getColumnLabel(c), result.getObject(c));
                }
                rows.add(row);
            }
            return rows;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The first column of every row as text, e.g. {@code SELECT m::text FROM members m ...}: whole rows to compare. */
    public static List<String> texts(String sql, Object... parameters) {
        return rows(sql, parameters).stream().map(row -> String.valueOf(row.values().iterator().next())).toList();
    }

    /** One number, e.g. the {@code count(*)} of rows a call must not have written. */
    public static long count(String sql, Object... parameters) {
        return ((Number) rows(sql, parameters).get(0).values().iterator().next()).longValue();
    }

    public static int update(String sql, Object... parameters) {
        try (Connection connection = connect(); PreparedStatement statement = prepare(connection, sql, parameters)) {
            return statement.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static PreparedStatement prepare(Connection connection, String sql, Object... parameters) throws SQLException {
        PreparedStatement statement = connection.prepareStatement(sql);
        for (int i = 0; i < parameters.length; i++) {
            statement.setObject(i + 1, parameters[i]);
        }
        return statement;
    }
}
