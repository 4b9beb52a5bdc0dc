package com.telemed.common.outbox;

import io.agroal.api.AgroalDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/** Reads the outbox table directly, as an operator would. */
final class OutboxRows {

    private OutboxRows() {
    }

    static int pending(AgroalDataSource dataSource, String topic) throws SQLException {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement count = connection.prepareStatement("select count(*) from outbox_events where topic = ?")) {
            count.setString(1, topic);
            try (ResultSet result = count.executeQuery()) {
                result.next();
                return result.getInt(1);
            }
        }
    }
}
