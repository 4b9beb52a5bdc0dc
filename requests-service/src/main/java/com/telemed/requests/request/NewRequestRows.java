package com.telemed.requests.request;

import com.telemed.requests.survey.SurveyLinks;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

/**
 * Writes a new request's rows, the request, its item, its {@code created} history entry and (when
 * the create names one) its survey response's link, with one SQL statement on a pooled connection,
 * the member's guard included (issue 23), and in sandbox the autopilot's plan ({@link Autopilot}). Hibernate, a JTA transaction, and a round trip per row
 * cost the create path about twice the database time of this one statement (pgbench: 2,400
 * transactions per second of the statements one by one against 5,000 of this statement on the same
 * server).
 *
 * <p>The statement decides, in this order:
 * <ol>
 *   <li>the member: {@code member_live} (V16) takes the member's advisory lock shared and refuses a
 *       member whose delete was agreed ({@link Written#MEMBER_GONE}). The function reads
 *       {@code deleted_members} after it holds the lock, with a snapshot of its own, so a delete
 *       agreed while the statement waited for the lock is seen;</li>
 *   <li>the idempotency key: the request's insert does nothing on a key the partner already
 *       recorded ({@code requests_idempotency_key}, V4). An insert with the same key still running
 *       in another transaction is waited for; when it commits, this one writes nothing
 *       ({@link Written#KEY_TAKEN}) and the caller replays the recorded request;</li>
 *   <li>the item, the history entry and the survey link are written only from the inserted request
 *       ({@code FROM r}): none of them exists without it.</li>
 * </ol>
 * Without a survey response the statement is its own transaction (autocommit). With one, the
 * response is taken only while still free, in a transaction that rolls back whole when it was not
 * ({@link Written#SURVEY_TAKEN}): of concurrent creates with one response, one commits.
 *
 * <p>Every column the entities map is written (see {@code NewRequestRowsTest}): the rows read back
 * through Hibernate equal the objects written.
 */
@ApplicationScoped
public class NewRequestRows {

    /** What the statement did; only {@link #CREATED} wrote anything. */
    public enum Written { CREATED, MEMBER_GONE, KEY_TAKEN, SURVEY_TAKEN }

    private static final String REQUEST_COLUMNS = "id, partner_id, member_id, member_name, member_email, member_dob, member_state,"
            + " status, consultation_open, case_notes, survey_response_id, pharmacy_send_at, legacy_single_drug, idempotency_key,"
            + " provider_id, prescriber_id, drug_id, drug_name, dosage, item_count, created_at, updated_at";
    private static final String REQUEST_VALUES = "?::uuid, ?, ?::uuid, ?, ?, ?, ?, ?, ?, ?, ?, ?::timestamptz, ?, ?, ?, ?::uuid, ?, ?, ?, ?,"
            + " ?::timestamptz, ?::timestamptz";
    private static final String ITEM_COLUMNS = "id, request_id, partner_id, position, request_created_at, drug_id, drug_name, dosage,"
            + " requested_sku_id, requested_sku, requested_dose_value, requested_dose_unit, selected_sku_id, status, prescriber_id,"
            + " pharmacy_id, pharmacy_method, pharmacy_sent, pharmacy_sent_at, pharmacy_order_id, tracking_number, ship_carrier,"
            + " delivery_status, transmit_due_at, transmission_claim, transmission_claimed_until, transmission_error,"
            + " transmission_failed_at, shipped_at, created_at, updated_at";
    private static final String ITEM_VALUES = "?::uuid, r.id, ?, ?, ?::timestamptz, ?, ?, ?, ?, ?, ?::numeric, ?, ?, ?, ?::uuid, ?, ?, ?,"
            + " ?::timestamptz, ?, ?, ?, ?, ?::timestamptz, ?::uuid, ?::timestamptz, ?, ?::timestamptz, ?::timestamptz,"
            + " ?::timestamptz, ?::timestamptz";

    /**
     * The sandbox autopilot's plan of the request ({@code simulation} on the create; table
     * {@code sandbox_autopilots}, V21), first step due at {@code dueAt}. Written by the same statement,
     * so a committed request always has its plan and a failed or replayed create none.
     */
    public record Autopilot(String outcome, boolean ship, Instant dueAt) {
    }

    /** The statements by [item][survey][autopilot]. */
    private static final String[][][] STATEMENTS = new String[2][2][2];

    static {
        for (int item = 0; item < 2; item++) {
            for (int survey = 0; survey < 2; survey++) {
                for (int autopilot = 0; autopilot < 2; autopilot++) {
                    STATEMENTS[item][survey][autopilot] = statement(item == 1, survey == 1, autopilot == 1);
                }
            }
        }
    }

    private final AgroalDataSource dataSource;

    public NewRequestRows(AgroalDataSource dataSource) {
        this.dataSource = dataSource;
    }

    /**
     * Writes {@code request}, {@code item} (null for a consultation request) and their history
     * entry at the request's creation time, and links {@code survey} (null when none) to the request.
     * Nothing is written unless the answer is {@link Written#CREATED}.
     */
    public Written write(Request request, LineItem item, SurveyLinks.Link survey) {
        return write(request, item, survey, null);
    }

    /** As {@link #write(Request, LineItem, SurveyLinks.Link)}, with the sandbox autopilot's plan when not null. */
    public Written write(Request request, LineItem item, SurveyLinks.Link survey, Autopilot autopilot) {
        String sql = STATEMENTS[item != null ? 1 : 0][survey != null ? 1 : 0][autopilot != null ? 1 : 0];
        List<Object> values = new ArrayList<>(64);
        values.add(request.partnerId);
        values.add(request.memberId);
        addRequest(values, request);
        if (item != null) {
            addItem(values, item);
        }
        values.add(item == null ? null : item.id);
        values.add(request.createdAt);
        if (survey != null) {
            values.add(request.memberId);
            values.add(request.createdAt);
            values.add(survey.responseId());
            values.add(request.memberId);
        }
        if (autopilot != null) {
            values.add(request.partnerId);
            values.add(autopilot.outcome());
            values.add(autopilot.ship());
            values.add(autopilot.dueAt());
            values.add(request.createdAt);
            values.add(request.createdAt);
        }
        try (Connection connection = dataSource.getConnection()) {
            if (survey == null) {
                return run(connection, sql, values, false);
            }
            connection.setAutoCommit(false);
            try {
                Written written = run(connection, sql, values, true);
                if (written == Written.CREATED) {
                    connection.commit();
                } else {
                    connection.rollback();
                }
                return written;
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            } finally {
                connection.setAutoCommit(true);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Could not write the request", e);
        }
    }

    private static Written run(Connection connection, String sql, List<Object> values, boolean survey) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < values.size(); i++) {
                bind(statement, i + 1, values.get(i));
            }
            try (ResultSet result = statement.executeQuery()) {
                result.next();
                if (!result.getBoolean(1)) {
                    return Written.MEMBER_GONE;
                }
                if (result.getInt(2) == 0) {
                    return Written.KEY_TAKEN;
                }
                return survey && result.getInt(3) == 0 ? Written.SURVEY_TAKEN : Written.CREATED;
            }
        }
    }

    /** Each value with its own JDBC type; a null as untyped text, which the statement casts (uuid, timestamptz, numeric). */
    private static void bind(PreparedStatement statement, int index, Object value) throws SQLException {
        if (value == null) {
            statement.setNull(index, Types.VARCHAR);
        } else if (value instanceof Boolean flag) {
            statement.setBoolean(index, flag);
        } else if (value instanceof Integer number) {
            statement.setInt(index, number);
        } else if (value instanceof Instant instant) {
            // The driver's own form: ISO text would write year 10000 as "+10000-...", which PostgreSQL refuses.
            statement.setObject(index, instant.atOffset(ZoneOffset.UTC));
        } else if (value instanceof BigDecimal number) {
            statement.setBigDecimal(index, number);
        } else if (value instanceof UUID uuid) {
            statement.setObject(index, uuid);
        } else if (value instanceof String text) {
            statement.setString(index, text);
        } else {
            throw new IllegalArgumentException("No binding for " + value.getClass());
        }
    }

    private static void addRequest(List<Object> values, Request request) {
        values.addAll(nullable(request.id, request.partnerId, request.memberId, request.memberName, request.memberEmail,
                request.memberDob, request.memberState, request.status, request.consultationOpen, request.caseNotes,
                request.surveyResponseId, request.pharmacySendAt, request.legacySingleDrug, request.idempotencyKey,
                request.providerId, request.prescriberId, request.drugId, request.drugName, request.dosage, request.itemCount,
                request.createdAt, request.updatedAt));
    }

    private static void addItem(List<Object> values, LineItem item) {
        values.addAll(nullable(item.id, item.partnerId, item.position, item.requestCreatedAt, item.drugId, item.drugName,
                item.dosage, item.requestedSkuId, item.requestedSku, item.requestedDoseValue, item.requestedDoseUnit,
                item.selectedSkuId, item.status, item.prescriberId, item.pharmacyId, item.pharmacyMethod, item.pharmacySent,
                item.pharmacySentAt, item.pharmacyOrderId, item.trackingNumber, item.shipCarrier, item.deliveryStatus,
                item.transmitDueAt, item.transmissionClaim, item.transmissionClaimedUntil, item.transmissionError,
                item.transmissionFailedAt, item.shippedAt, item.createdAt, item.updatedAt));
    }

    /** {@code List.of} refuses nulls; the rows have many. */
    private static List<Object> nullable(Object... values) {
        return Arrays.asList(values);
    }

    /**
     * The statement: the member's guard ({@code live}), the request ({@code r}), the item
     * ({@code i}, when there is one), the history entry ({@code h}) and the survey link ({@code s},
     * when there is one); it answers whether the member was live, how many requests it inserted (0
     * on a taken key) and how many survey responses it took.
     */
    private static String statement(boolean item, boolean survey, boolean autopilot) {
        StringBuilder sql = new StringBuilder("WITH live AS (SELECT member_live(?, ?::uuid) AS ok),")
                .append(" r AS (INSERT INTO requests (").append(REQUEST_COLUMNS).append(") SELECT ").append(REQUEST_VALUES)
                .append(" FROM live WHERE live.ok")
                .append(" ON CONFLICT (partner_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING RETURNING id),");
        if (item) {
            sql.append(" i AS (INSERT INTO line_items (").append(ITEM_COLUMNS).append(") SELECT ").append(ITEM_VALUES)
                    .append(" FROM r),");
        }
        sql.append(" h AS (INSERT INTO history_entries (request_id, item_id, action, by_actor, reason, at)")
                .append(" SELECT r.id, ?::uuid, 'created', '").append(HistoryEntry.API).append("', NULL, ?::timestamptz FROM r)");
        if (survey) {
            sql.append(", s AS (UPDATE survey_responses SET request_id = r.id, member_id = ?::uuid, linked_at = ?::timestamptz FROM r")
                    .append(" WHERE survey_responses.id = ?::uuid AND survey_responses.request_id IS NULL")
                    .append(" AND (survey_responses.mode = 'initial' OR survey_responses.member_id = ?::uuid) RETURNING 1)");
        }
        if (autopilot) {
            sql.append(", p AS (INSERT INTO sandbox_autopilots (request_id, partner_id, outcome, ship, due_at, created_at, updated_at)")
                    .append(" SELECT r.id, ?, ?, ?, ?::timestamptz, ?::timestamptz, ?::timestamptz FROM r)");
        }
        sql.append(" SELECT (SELECT ok FROM live), (SELECT count(*) FROM r), ")
                .append(survey ? "(SELECT count(*) FROM s)" : "0");
        return sql.toString();
    }
}
