package com.telemed.bench.support;

import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Around a set-based load of a million rows: the tables' indexes (those not backing a constraint)
 * dropped first and recreated after from their own definitions (pg_get_indexdef), which is much
 * faster than maintaining them row by row (a trigram GIN above all).
 */
public final class BulkLoad {

    private BulkLoad() {
    }

    /** Drops the indexes of these tables that back no constraint; their definitions, to recreate them. */
    public static List<String> dropIndexes(Statement st, String... tables) throws Exception {
        String names = "'" + String.join("', '", tables) + "'";
        String regclasses = "'" + String.join("'::regclass, '", tables) + "'::regclass";
        List<String> indexes = new ArrayList<>();
        List<String> dropped = new ArrayList<>();
        try (ResultSet rs = st.executeQuery("SELECT indexname, indexdef FROM pg_indexes WHERE tablename IN (" + names + ")"
                + " AND indexname NOT IN (SELECT conname FROM pg_constraint WHERE conrelid IN (" + regclasses + "))")) {
            while (rs.next()) {
                dropped.add(rs.getString(1));
                indexes.add(rs.getString(2));
            }
        }
        for (String name : dropped) {
            st.execute("DROP INDEX " + name);
        }
        return indexes;
    }

    public static void createIndexes(Statement st, List<String> definitions) throws Exception {
        for (String index : definitions) {
            st.execute(index);
        }
    }
}
