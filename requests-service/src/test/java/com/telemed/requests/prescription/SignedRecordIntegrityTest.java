package com.telemed.requests.prescription;

import static com.telemed.testkit.quarkus.ServiceDatabase.rows;
import static com.telemed.testkit.quarkus.ServiceDatabase.texts;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.common.json.Timestamps;
import com.telemed.requests.FakeNeighbours;
import com.telemed.requests.FakeNeighboursResource;
import com.telemed.requests.request.PendingRequest;
import com.telemed.testkit.quarkus.InfrastructureResource;
import com.telemed.testkit.quarkus.ServiceDatabase;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.lang.reflect.RecordComponent;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.postgresql.util.PSQLException;

/**
 * A record signed through the prescriber console stays what was signed (V10__record_integrity.sql):
 * the database refuses a change of a frozen column and a status move the record status table does
 * not allow, from any client, and a change made behind the trigger's back shows as a digest that no
 * longer matches. Statements run here as the service's database user (the superuser in tests), as
 * a script or a hand in psql would.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(FakeNeighboursResource.class)
class SignedRecordIntegrityTest {

    private static final String TRIGGER = Tampering.TRIGGER;
    private static final String FROZEN = "RX001";
    private static final String BAD_MOVE = "RX002";

    /** The record status table (partner-api.md, "Prescription record status"; the brief of the trigger). */
    private static final Map<String, Set<String>> MOVES = new LinkedHashMap<>();

    static {
        MOVES.put("issued", Set.of("sent_to_pharmacy", "voided", "cancelled", "expired"));
        MOVES.put("sent_to_pharmacy", Set.of("filled", "cancelled", "voided", "expired"));
        MOVES.put("filled", Set.of("refilled", "expired"));
        MOVES.put("refilled", Set.of("refilled", "expired"));
        MOVES.put("cancelled", Set.of());
        MOVES.put("voided", Set.of());
        MOVES.put("expired", Set.of());
    }

    @Inject
    FakeNeighbours neighbours;

    @BeforeEach
    void setUp() {
        neighbours.reset();
    }

    @AfterEach
    void healNeighbours() {
        neighbours.reset();
    }

    private record Approved(PendingRequest pending, UUID recordId) {
    }

    /**
     * A new request's item approved through the console, the dose sent as {@code 2.50} and the
     * quantity as {@code 30.0}: the console's tree strips them to {@code 2.5} and {@code 3E+1}
     * (a decimal node), jsonb gives the quantity back as {@code 30}, read as an int node. The
     * partner is deferred, so no transmission moves the record while a test reads it.
     */
    private Approved approved() {
        PendingRequest pending = PendingRequest.create(neighbours, "Grace", "Hopper");
        given().contentType("application/json").body("{\"mode\": \"deferred\"}")
                .put("/ops/v1/partners/" + pending.partner() + "/fulfilment").then().statusCode(200);
        String body = """
                {"prescriberId": "%s", "prescription": {"skuId": "%s", "quantity": 30.0, "quantityUnits": "pens",
                 "daysSupply": 28, "directions": "Inject 2.5 mg weekly", "refills": 2, "dispenseAsWritten": false,
                 "clinicalDose": {"value": 2.50, "unit": "mg"}, "dosingIntervalDays": 7}}"""
                .formatted(pending.prescriberId(), FakeNeighbours.skuId(pending.drugId(), 0));
        String recordId = given().contentType("application/json").body(body)
                .post("/ops/v1/requests/" + pending.requestId() + "/items/" + pending.itemId() + "/approve")
                .then().statusCode(200)
                .body("prescriptionRecord.status", equalTo("issued"))
                .extract().path("prescriptionRecord.id");
        return new Approved(pending, UUID.fromString(recordId));
    }

    /** The whole row as text: what a refused statement must leave as it was. */
    private static String row(UUID recordId) {
        return texts("SELECT p::text FROM prescription_records p WHERE id = ?", recordId).get(0);
    }

    private static String status(UUID recordId) {
        return texts("SELECT status FROM prescription_records WHERE id = ?", recordId).get(0);
    }

    private static PrescriptionRecord reRead(UUID recordId) {
        return QuarkusTransaction.requiringNew().call(() -> PrescriptionRecord.<PrescriptionRecord>findById(recordId));
    }

    /** The statement fails in the database; the server's own error (SQLSTATE and message without the context lines). */
    private static PSQLException refused(String sql, Object... parameters) {
        IllegalStateException failed = assertThrows(IllegalStateException.class, () -> ServiceDatabase.update(sql, parameters));
        return assertInstanceOf(PSQLException.class, failed.getCause());
    }

    private static void assertRefused(PSQLException refusal, String sqlState, String message) {
        assertEquals(sqlState, refusal.getSQLState(), refusal::getMessage);
        assertEquals(message, refusal.getServerErrorMessage().getMessage());
    }

    @Test
    void theSignedColumnsCannotChangeInTheDatabase() {
        UUID id = approved().recordId();
        String before = row(id);
        assertEquals(List.of("2.5"), texts("SELECT clinical #>> '{clinicalDose,value}' FROM prescription_records WHERE id = ?", id));

        assertRefused(refused("UPDATE prescription_records SET clinical = jsonb_set(clinical, '{clinicalDose,value}', '5') WHERE id = ?", id),
                FROZEN, "prescription record " + id + " is signed: clinical cannot change");
        assertEquals(before, row(id));

        assertRefused(refused("UPDATE prescription_records SET drug_id = 'another-drug', issued_at = issued_at + interval '1 day',"
                        + " digest = NULL, status = 'filled' WHERE id = ?", id),
                FROZEN, "prescription record " + id + " is signed: drug_id, issued_at, digest cannot change");
        assertRefused(refused("UPDATE prescription_records SET id = ? WHERE id = ?", UUID.randomUUID(), id),
                FROZEN, "prescription record " + id + " is signed: id cannot change");
        assertRefused(refused("UPDATE prescription_records SET supersedes_id = ?, renewal_of_id = ?, line_item_id = NULL WHERE id = ?",
                        UUID.randomUUID(), UUID.randomUUID(), id),
                FROZEN, "prescription record " + id + " is signed: line_item_id, supersedes_id, renewal_of_id cannot change");
        assertEquals(before, row(id));

        // jsonb compares values, not texts, numbers as numbers: 2.50 is the dose signed, written otherwise,
        // and passes; the digest, which strips trailing zeros, agrees that nothing signed changed.
        assertEquals(1, ServiceDatabase.update(
                "UPDATE prescription_records SET clinical = jsonb_set(clinical, '{clinicalDose,value}', '2.50') WHERE id = ?", id));
        assertEquals(List.of("2.50"), texts("SELECT clinical #>> '{clinicalDose,value}' FROM prescription_records WHERE id = ?", id));
        assertTrue(reRead(id).intact());
    }

    @Test
    void statusMovesFollowTheRecordStatusTable() {
        Approved approved = approved();
        UUID id = approved.recordId();
        String before = row(id);
        assertRefused(refused("UPDATE prescription_records SET status = 'filled' WHERE id = ?", id),
                BAD_MOVE, "prescription record " + id + ": status issued cannot move to filled");
        assertRefused(refused("UPDATE prescription_records SET status = 'shipped' WHERE id = ?", id),
                BAD_MOVE, "prescription record " + id + ": status issued cannot move to shipped");
        assertEquals(before, row(id));

        // Through the entity, as a send to the pharmacy will: the frozen columns are not in Hibernate's UPDATE.
        Instant sent = Timestamps.now();
        QuarkusTransaction.requiringNew().run(() -> PrescriptionRecord.<PrescriptionRecord>findById(id).sentToPharmacy("order-1", sent));
        Map<String, Object> stamped = rows("SELECT status, pharmacy_order_id, sent_to_pharmacy_at, updated_at FROM prescription_records"
                + " WHERE id = ?", id).get(0);
        assertEquals("sent_to_pharmacy", stamped.get("status"));
        assertEquals("order-1", stamped.get("pharmacy_order_id"));
        assertEquals(sent, ((Timestamp) stamped.get("sent_to_pharmacy_at")).toInstant());
        assertEquals(sent, ((Timestamp) stamped.get("updated_at")).toInstant());
        assertTrue(reRead(id).intact());

        assertEquals(1, ServiceDatabase.update("UPDATE prescription_records SET status = 'filled', filled_at = now() WHERE id = ?", id));
        assertEquals(1, ServiceDatabase.update("UPDATE prescription_records SET status = 'refilled' WHERE id = ?", id));
        assertEquals(1, ServiceDatabase.update("UPDATE prescription_records SET status = 'refilled', filled_at = now() WHERE id = ?", id));
        assertEquals(1, ServiceDatabase.update("UPDATE prescription_records SET status = 'expired' WHERE id = ?", id));
        assertEquals(1, ServiceDatabase.update("UPDATE prescription_records SET status = 'expired', updated_at = now() WHERE id = ?", id));
        assertRefused(refused("UPDATE prescription_records SET status = 'issued' WHERE id = ?", id),
                BAD_MOVE, "prescription record " + id + ": status expired cannot move to issued");
        assertEquals("expired", status(id));
        assertTrue(reRead(id).intact());

        // The partner's cancel voids the item's record through the entity (issued -> voided): still allowed.
        Approved second = approved();
        UUID voided = second.recordId();
        given().header("X-Partner-Id", second.pending().partner()).contentType("application/json")
                .body(Map.of("reason", "patient changed their mind"))
                .post("/v1/requests/" + second.pending().requestId() + "/cancel")
                .then().statusCode(200)
                .body("cancelled[0].prescriptionId", equalTo(voided.toString()));
        assertEquals(List.of(Map.of("status", "voided", "void_reason", "patient changed their mind")),
                rows("SELECT status, void_reason FROM prescription_records WHERE id = ?", voided));
        assertRefused(refused("UPDATE prescription_records SET status = 'issued' WHERE id = ?", voided),
                BAD_MOVE, "prescription record " + voided + ": status voided cannot move to issued");
        assertEquals(1, ServiceDatabase.update("UPDATE prescription_records SET void_reason = 'duplicate' WHERE id = ?", voided));
        assertEquals("voided", status(voided));
        assertTrue(reRead(voided).intact());
    }

    /**
     * Every move from every status, each tried under a savepoint in one transaction that is rolled
     * back at the end: the record is put in the status to move from with the trigger disabled, which
     * the rollback undoes with the rest (DDL is transactional in PostgreSQL), so no other session
     * ever sees the trigger off.
     */
    @Test
    void everyMoveOfTheTableAndNoOther() throws SQLException {
        UUID id = approved().recordId();
        String before = row(id);
        List<String> targets = new ArrayList<>(MOVES.keySet());
        targets.add("shipped");
        Map<String, String> expected = new LinkedHashMap<>();
        Map<String, String> actual = new LinkedHashMap<>();
        try (Connection connection = ServiceDatabase.connect(); Statement statement = connection.createStatement();
             PreparedStatement move = connection.prepareStatement("UPDATE prescription_records SET status = ? WHERE id = ?")) {
            connection.setAutoCommit(false);
            try {
                for (String from : MOVES.keySet()) {
                    statement.execute("ALTER TABLE prescription_records DISABLE TRIGGER " + TRIGGER);
                    move.setString(1, from);
                    move.setObject(2, id);
                    assertEquals(1, move.executeUpdate());
                    statement.execute("ALTER TABLE prescription_records ENABLE TRIGGER " + TRIGGER);
                    for (String to : targets) {
                        String name = from + " -> " + to;
                        expected.put(name, from.equals(to) || MOVES.get(from).contains(to) ? "moved"
                                : BAD_MOVE + " prescription record " + id + ": status " + from + " cannot move to " + to);
                        Savepoint savepoint = connection.setSavepoint();
                        try {
                            move.setString(1, to);
                            actual.put(name, move.executeUpdate() == 1 ? "moved" : "no row");
                        } catch (PSQLException refusal) {
                            actual.put(name, refusal.getSQLState() + " " + refusal.getServerErrorMessage().getMessage());
                        }
                        connection.rollback(savepoint);
                    }
                }
            } finally {
                connection.rollback();
            }
        }
        assertEquals(expected, actual);
        assertEquals(before, row(id));
        assertEquals(List.of("O"), texts("SELECT tgenabled::text FROM pg_trigger WHERE tgname = ?", TRIGGER));
    }

    @Test
    void theStoredDigestIsTheDigestOfTheRecordReadBack() {
        Approved approved = approved();
        UUID id = approved.recordId();
        String stored = texts("SELECT digest FROM prescription_records WHERE id = ?", id).get(0);
        assertTrue(stored.matches("[0-9a-f]{64}"), stored);
        assertEquals(List.of("30"), texts("SELECT (clinical -> 'quantity')::text FROM prescription_records WHERE id = ?", id));

        // Signed from a decimal node 3E+1, read back as an int node 30: the digests must agree all the same.
        PrescriptionRecord record = reRead(id);
        assertTrue(record.clinical.quantity().isInt(), record.clinical.quantity().getNodeType()::toString);
        assertEquals(stored, record.digest);
        assertEquals(stored, RecordDigest.of(record));
        assertTrue(record.intact());

        // Internal: the partner sees the record's fields and no digest.
        List<String> wire = Arrays.stream(PrescriptionViews.Record.class.getRecordComponents()).map(RecordComponent::getName).toList();
        assertFalse(wire.contains("digest"));
        Map<String, Object> onTheWire = given().header("X-Partner-Id", approved.pending().partner())
                .get("/v1/requests/" + approved.pending().requestId())
                .then().statusCode(200).extract().jsonPath().getMap("prescriptionRecords[0]");
        assertEquals(Set.copyOf(wire), onTheWire.keySet());
        assertEquals(id.toString(), onTheWire.get("id"));
    }

    @Test
    void aChangeBehindTheTriggersBackBreaksTheDigest() throws SQLException {
        UUID id = approved().recordId();
        String stored = texts("SELECT digest FROM prescription_records WHERE id = ?", id).get(0);

        Tampering.changeSignedDose(id, "5");
        assertEquals(List.of("O"), texts("SELECT tgenabled::text FROM pg_trigger WHERE tgname = ?", TRIGGER));

        PrescriptionRecord record = reRead(id);
        assertEquals(new BigDecimal("5"), record.clinical.clinicalDose().value());
        assertEquals(stored, record.digest);
        assertNotEquals(stored, RecordDigest.of(record));
        assertFalse(record.intact());
    }
}
