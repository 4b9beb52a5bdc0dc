package com.telemed.bench.requests;

import com.telemed.bench.support.Pgbench;
import com.telemed.testkit.infra.PostgresServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The database's ceiling for the very statements one {@code POST /v1/requests} runs (issue 23): the
 * statements PostgreSQL's {@code pg_stat_statements} recorded per create (bench/requests.sh with
 * {@code BENCH_PROFILE=1}, every statement in {@code bench/target/profile/statements.tsv}), in the
 * same transactions, with the values of a create the bench made (its rows read back; new ids for
 * each run), replayed by pgbench at the same concurrency on the same server in the same run: one
 * pgbench run per transaction the create runs (gateway, the member and the drug read together from
 * requests-service's copies of them, requests' insert; until issue 23's copies, members-service's read of the
 * member and catalogue-service's lookup), since a pgbench
 * connection has one database. A create needs all three parts, so the ceiling is
 * {@code 1 / sum(1 / part's transactions per second)}: the rate at which the server could do every
 * part of every create, one after the other on the same cores.
 *
 * <p>Two differences from the services' statements: the ids of the new rows are made inside the
 * statement by {@code gen_random_uuid()} (requests-service makes them in Java and sends them as
 * parameters); nothing of the outbox relay's or the other consumers' background work is replayed
 * (none of it runs per create), in the ceiling's favour of being higher.
 */
final class SameStatementsCeiling {

    /** Each database's transactions per second, and the combined ceiling in creates per second. */
    record Result(Map<String, Pgbench.Result> parts, double perSecond) {
    }

    private static final String REQUEST_COLUMNS = "case_notes,consultation_open,created_at,dosage,drug_id,drug_name,idempotency_key,"
            + "item_count,legacy_single_drug,member_dob,member_email,member_id,member_name,member_state,partner_id,pharmacy_send_at,"
            + "prescriber_id,provider_id,status,survey_response_id,updated_at,id";
    private static final String ITEM_COLUMNS = "created_at,delivery_status,dosage,drug_id,drug_name,partner_id,pharmacy_id,"
            + "pharmacy_method,pharmacy_order_id,pharmacy_sent,pharmacy_sent_at,position,prescriber_id,request_created_at,request_id,"
            + "requested_dose_unit,requested_dose_value,requested_sku,requested_sku_id,selected_sku_id,ship_carrier,shipped_at,status,"
            + "tracking_number,transmission_claim,transmission_claimed_until,transmission_error,transmission_failed_at,transmit_due_at,"
            + "updated_at,id";
    private static final String HISTORY_COLUMNS = "request_id,item_id,action,by_actor,reason,at";

    private SameStatementsCeiling() {
    }

    /** Null when pgbench is missing or a part failed (said why). */
    static Result measure(PostgresServer postgres, String partnerId, String memberId, String drugId, String requestId, int clients,
                          Duration round) throws Exception {
        Map<String, String> variables = new LinkedHashMap<>();
        variables.put("partner", partnerId);
        variables.put("member", memberId);
        variables.put("drug", drugId);
        variables.put("one", "1");
        try (Connection gateway = connect(postgres, "gateway");
             PreparedStatement st = gateway.prepareStatement("SELECT api_key_hash FROM partners WHERE id = ?")) {
            st.setObject(1, UUID.fromString(partnerId));
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                variables.put("hash", rs.getString(1).strip());
            }
        }
        String requestsScript;
        try (Connection requests = connect(postgres, "requests")) {
            // requests-service's NewRequestRows: the member's guard and the three inserts in one statement, in
            // autocommit (issue 23); new ids made inline by gen_random_uuid(), the history entry naming the item's.
            requestsScript = "WITH live AS (SELECT member_live(:partner, :member::uuid) AS ok),"
                    + " r AS (INSERT INTO requests (" + REQUEST_COLUMNS + ") SELECT "
                    + values(requests, "requests", REQUEST_COLUMNS, "id = ?", requestId, "r_", variables, Map.of("id", "gen_random_uuid()"))
                    + " FROM live WHERE live.ok ON CONFLICT (partner_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING"
                    + " RETURNING id),"
                    + " i AS (INSERT INTO line_items (" + ITEM_COLUMNS + ") SELECT "
                    + values(requests, "line_items", ITEM_COLUMNS, "request_id = ?", requestId, "i_", variables,
                            Map.of("id", "gen_random_uuid()", "request_id", "r.id"))
                    + " FROM r RETURNING id),"
                    + " h AS (INSERT INTO history_entries (" + HISTORY_COLUMNS + ") SELECT "
                    + values(requests, "history_entries", HISTORY_COLUMNS, "request_id = ? AND action = 'created'", requestId, "h_",
                            variables, Map.of("request_id", "r.id", "item_id", "i.id"))
                    + " FROM r, i)"
                    + " SELECT (SELECT ok FROM live), (SELECT count(*) FROM r), 0;\n";
        }
        // part name -> {database, script}
        Map<String, String[]> scripts = new LinkedHashMap<>();
        scripts.put("gateway", new String[] {"gateway", "SELECT id, api_key_hash FROM partners WHERE api_key_hash = :hash;\n"});
        // The member and the drug: requests-service's copies of them, read side by side in one statement without a
        // transaction around it (a copy of CopiedReads.BOTH; issue 23: until then members-service's read of the member
        // in its own database and catalogue-service's lookup, then two statements).
        scripts.put("copies", new String[] {"requests", """
                SELECT m.*, d.* FROM (SELECT 1) AS one LEFT JOIN (\
                SELECT c.first_name, c.last_name, c.email, c.date_of_birth, c.state, c.version FROM member_copies c \
                WHERE c.partner_id = :partner AND c.member_id = :member::uuid AND c.version > 0 AND c.version >= c.fence \
                AND NOT EXISTS (SELECT 1 FROM deleted_members d WHERE d.partner_id = c.partner_id AND d.member_id = c.member_id)\
                ) AS m ON true LEFT JOIN (\
                SELECT d.drug::text, d.pharmacy_id, d.pharmacy_method, a.drug_ids IS NULL OR d.drug_id = ANY (a.drug_ids) \
                FROM catalogue_drugs d LEFT JOIN catalogue_access a ON a.partner_id = :partner WHERE d.drug_id = :drug\
                ) AS d ON true;
                """});
        scripts.put("requests", new String[] {"requests", requestsScript});
        Map<String, Pgbench.Result> parts = new LinkedHashMap<>();
        double secondsPerCreate = 0;
        for (Map.Entry<String, String[]> part : scripts.entrySet()) {
            // Each part starts just after a checkpoint, so that none has one fall inside it by chance
            // (issue 23: the requests part ran 3,846 tx/s in one run and 2,466 in the next).
            try (Connection db = connect(postgres, part.getValue()[0]); Statement st = db.createStatement()) {
                st.execute("CHECKPOINT");
            }
            Pgbench.Result result = Pgbench.run(postgres, part.getValue()[0], part.getValue()[1], variables, clients, round);
            if (result == null) {
                System.out.println("(no same-statements ceiling: the " + part.getKey() + " part failed; its script:\n"
                        + part.getValue()[1] + ")");
                return null;
            }
            parts.put(part.getKey(), result);
            secondsPerCreate += 1 / result.perSecond();
        }
        return new Result(parts, 1 / secondsPerCreate);
    }

    /**
     * The value expressions of one row as the service sends them: each value the one the bench's create stored
     * ({@code prefix + column} variables, cast to the column's type as the service's statement casts its
     * parameters), null as NULL, the ids from {@code ids}.
     */
    private static String values(Connection db, String table, String columns, String where, String requestId, String prefix,
                                 Map<String, String> variables, Map<String, String> ids) throws Exception {
        List<String> names = List.of(columns.split(",\\s*"));
        Map<String, String> types = new LinkedHashMap<>();
        try (PreparedStatement st = db.prepareStatement(
                "SELECT column_name, format_type(atttypid, atttypmod) FROM information_schema.columns c"
                        + " JOIN pg_attribute a ON a.attrelid = c.table_name::regclass AND a.attname = c.column_name WHERE c.table_name = ?")) {
            st.setString(1, table);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    types.put(rs.getString(1), rs.getString(2));
                }
            }
        }
        StringBuilder select = new StringBuilder("SELECT ");
        for (int i = 0; i < names.size(); i++) {
            select.append(i == 0 ? "" : ", ").append(names.get(i)).append("::text");
        }
        select.append(" FROM ").append(table).append(" WHERE ").append(where).append(" LIMIT 1");
        StringBuilder values = new StringBuilder();
        try (PreparedStatement st = db.prepareStatement(select.toString())) {
            st.setObject(1, UUID.fromString(requestId));
            try (ResultSet rs = st.executeQuery()) {
                if (!rs.next()) {
                    throw new IllegalStateException("no " + table + " row of request " + requestId);
                }
                for (int i = 0; i < names.size(); i++) {
                    String name = names.get(i);
                    String value = rs.getString(i + 1);
                    String expression;
                    if (ids.containsKey(name)) {
                        expression = ids.get(name);
                    } else if (value == null) {
                        expression = "NULL::" + types.get(name);
                    } else {
                        variables.put(prefix + name, value);
                        expression = ":" + prefix + name + "::" + types.get(name);
                    }
                    values.append(i == 0 ? "" : ", ").append(expression);
                }
            }
        }
        return values.toString();
    }

    private static Connection connect(PostgresServer postgres, String database) throws Exception {
        return DriverManager.getConnection(postgres.jdbcUrl(database), postgres.username(), postgres.password());
    }
}
