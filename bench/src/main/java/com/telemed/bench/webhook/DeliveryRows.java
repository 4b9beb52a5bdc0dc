package com.telemed.bench.webhook;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;

/** What webhook-service recorded in its database for some partners: deliveries and their attempts. */
final class DeliveryRows {

    private DeliveryRows() {
    }

    /** Attempts as webhook-service recorded them: by outcome, with their recorded duration. */
    static String attempts(Connection db, String[] partners) throws Exception {
        StringBuilder out = new StringBuilder();
        try (PreparedStatement st = db.prepareStatement("SELECT coalesce(a.http_status::text, a.error), count(*),"
                + " avg(a.duration_ms), percentile_disc(0.5) WITHIN GROUP (ORDER BY a.duration_ms),"
                + " percentile_disc(0.99) WITHIN GROUP (ORDER BY a.duration_ms), max(a.duration_ms)"
                + " FROM delivery_attempts a JOIN deliveries d ON d.id = a.delivery_id WHERE d.partner_id = ANY (?)"
                + " GROUP BY 1 ORDER BY 2 DESC")) {
            st.setArray(1, db.createArrayOf("text", partners));
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    out.append(String.format("%s%s x%d (duration mean %.1f ms, p50 %d, p99 %d, max %d)",
                            out.length() == 0 ? "" : "; ", rs.getString(1), rs.getLong(2), rs.getDouble(3),
                            rs.getLong(4), rs.getLong(5), rs.getLong(6)));
                }
            }
        }
        return out.toString();
    }

    /** Deliveries of these partners in the state delivered. */
    static long delivered(Connection db, String[] partners) {
        try (PreparedStatement st = db.prepareStatement(
                "SELECT count(*) FROM deliveries WHERE status = 'delivered' AND partner_id = ANY (?)")) {
            st.setArray(1, db.createArrayOf("text", partners));
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** The intake window: from the first to the last delivery row of these partners stored, in seconds. */
    static double intakeSeconds(Connection db, String[] partners) throws Exception {
        try (PreparedStatement st = db.prepareStatement("SELECT extract(epoch FROM max(created_at) - min(created_at))"
                + " FROM deliveries WHERE partner_id = ANY (?)")) {
            st.setArray(1, db.createArrayOf("text", partners));
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                return rs.getDouble(1);
            }
        }
    }
}
