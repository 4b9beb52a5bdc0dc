package com.telemed.requests.request;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.telemed.requests.FakeNeighboursResource;
import com.telemed.requests.survey.SurveyLinks;
import com.telemed.testkit.quarkus.InfrastructureResource;
import io.agroal.api.AgroalDataSource;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import jakarta.persistence.Column;
import java.lang.reflect.Field;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link NewRequestRows}: the create's one statement writes every column the entities map, and its
 * guards hold when the statement has to wait: its snapshot is taken before it waits, so each guard
 * must see what committed while it waited (a delete agreed, a key recorded, a survey response taken).
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(FakeNeighboursResource.class)
class NewRequestRowsTest {

    @Inject
    AgroalDataSource dataSource;

    @Inject
    NewRequestRows rows;

    private final ExecutorService creates = Executors.newSingleThreadExecutor();

    @AfterEach
    void tearDown() {
        creates.shutdownNow();
    }

    @Test
    void everyMappedColumnOfTheRequestAndItsItemIsWritten() throws Exception {
        Request request = request("partner-" + UUID.randomUUID(), UUID.randomUUID(), "key-" + UUID.randomUUID());
        request.memberName = "Ada Rows";
        request.memberEmail = "ada.rows@example.com";
        request.memberDob = "1980-02-03";
        request.memberState = "CA";
        request.consultationOpen = true;
        request.caseNotes = "notes";
        request.surveyResponseId = "survey-text";
        // The latest the contract accepts: year 10000 in UTC, beyond what ISO text without a sign holds.
        request.pharmacySendAt = java.time.OffsetDateTime.parse("9999-12-31T23:59:59.999-18:00").toInstant();
        request.legacySingleDrug = true;
        request.providerId = "provider";
        request.prescriberId = UUID.randomUUID();
        request.drugId = "drug";
        request.drugName = "Drug";
        request.dosage = "2.5 mg";
        LineItem item = item(request);
        item.position = 3;
        item.dosage = "5 mg";
        item.requestedSkuId = "sku-1";
        item.requestedSku = "2.5 mg/mL vial";
        item.requestedDoseValue = new BigDecimal("2.50");
        item.requestedDoseUnit = "mg";
        item.selectedSkuId = "sku-2";
        item.prescriberId = UUID.randomUUID();
        item.pharmacySent = true;
        item.pharmacySentAt = instant(4);
        item.pharmacyOrderId = "order-" + UUID.randomUUID();
        item.trackingNumber = "1Z";
        item.shipCarrier = "UPS";
        item.deliveryStatus = "in_transit";
        item.transmitDueAt = instant(5);
        item.transmissionClaim = UUID.randomUUID();
        item.transmissionClaimedUntil = instant(6);
        item.transmissionError = "held";
        item.transmissionFailedAt = instant(7);
        item.shippedAt = instant(8);
        item.updatedAt = instant(9);

        assertEquals(NewRequestRows.Written.CREATED, rows.write(request, item, null));

        assertEveryColumnEqual(request, QuarkusTransaction.requiringNew().call(() -> Request.<Request>findById(request.id)));
        assertEveryColumnEqual(item, QuarkusTransaction.requiringNew().call(() -> LineItem.<LineItem>findById(item.id)));
        assertEquals(List.of(request.id + " " + item.id + " created api null " + request.createdAt), history(request.id));
    }

    @Test
    void aConsultationRequestHasNoItemAndItsHistoryNamesNone() throws Exception {
        Request request = request("partner-" + UUID.randomUUID(), UUID.randomUUID(), null);
        request.itemCount = 0;
        assertEquals(NewRequestRows.Written.CREATED, rows.write(request, null, null));
        assertEquals(0L, count("SELECT count(*) FROM line_items WHERE request_id = ?", request.id));
        assertEquals(List.of(request.id + " null created api null " + request.createdAt), history(request.id));
    }

    @Test
    void aKeyThePartnerAlreadyRecordedWritesNothing() throws Exception {
        String partner = "partner-" + UUID.randomUUID();
        String key = "key-" + UUID.randomUUID();
        Request first = request(partner, UUID.randomUUID(), key);
        assertEquals(NewRequestRows.Written.CREATED, rows.write(first, item(first), null));
        Request second = request(partner, UUID.randomUUID(), key);
        assertEquals(NewRequestRows.Written.KEY_TAKEN, rows.write(second, item(second), null));
        assertNothingWritten(second);
        Request otherPartner = request("other-" + partner, UUID.randomUUID(), key);
        assertEquals(NewRequestRows.Written.CREATED, rows.write(otherPartner, item(otherPartner), null),
                "keys are the partner's own");
    }

    @Test
    void aKeyRecordedByATransactionThatCommitsWhileTheStatementWaitsIsTaken() throws Exception {
        Request second = whileAnotherInsertOfTheKeyRuns(true, NewRequestRows.Written.KEY_TAKEN);
        assertNothingWritten(second);
    }

    @Test
    void aKeyWhoseOtherInsertRollsBackIsWritten() throws Exception {
        Request second = whileAnotherInsertOfTheKeyRuns(false, NewRequestRows.Written.CREATED);
        assertEquals(1L, count("SELECT count(*) FROM line_items WHERE request_id = ?", second.id));
    }

    /**
     * Another transaction inserts a request with a key and holds it; this statement writes a request with the same
     * key, must wait, and answers {@code expected} once the other commits ({@code commit}) or rolls back. Its request.
     */
    private Request whileAnotherInsertOfTheKeyRuns(boolean commit, NewRequestRows.Written expected) throws Exception {
        String partner = "partner-" + UUID.randomUUID();
        String key = "key-" + UUID.randomUUID();
        Request first = request(partner, UUID.randomUUID(), key);
        Request second = request(partner, UUID.randomUUID(), key);
        try (Connection other = dataSource.getConnection()) {
            other.setAutoCommit(false);
            insertRequestRow(other, first);
            Future<NewRequestRows.Written> written = creates.submit(() -> rows.write(second, item(second), null));
            await().atMost(Duration.ofSeconds(10)).until(() -> waiting("transactionid"));
            assertFalse(written.isDone(), "the statement waits for the other insert of the key");
            if (commit) {
                other.commit();
            } else {
                other.rollback();
            }
            assertEquals(expected, written.get(10, TimeUnit.SECONDS));
        }
        return second;
    }

    @Test
    void aDeleteAgreedWhileTheStatementWaitsOnTheMembersLockIsSeenOnceTheLockIsGranted() throws Exception {
        String partner = "partner-" + UUID.randomUUID();
        UUID member = UUID.randomUUID();
        Request request = request(partner, member, null);
        try (Connection delete = dataSource.getConnection()) {
            delete.setAutoCommit(false);
            // MemberDeletions.agree's lock and record, not yet committed.
            try (PreparedStatement lock = delete.prepareStatement(
                    "SELECT 1 FROM (SELECT pg_advisory_xact_lock(hashtext('requests.member:' || ?), hashtext(?))) AS locked")) {
                lock.setString(1, partner);
                lock.setString(2, member.toString());
                lock.executeQuery().close();
            }
            recordDeleted(delete, partner, member);
            Future<NewRequestRows.Written> written = creates.submit(() -> rows.write(request, item(request), null));
            await().atMost(Duration.ofSeconds(10)).until(() -> waiting("advisory"));
            assertFalse(written.isDone(), "the create waits for the delete's lock");
            delete.commit();
            assertEquals(NewRequestRows.Written.MEMBER_GONE, written.get(10, TimeUnit.SECONDS),
                    "the delete committed while the create waited: no request");
        }
        assertNothingWritten(request);
    }

    @Test
    void aMemberWhoseDeleteWasAgreedGetsNothingAndAnotherPartnersRecordIsNotThisPartners() throws Exception {
        String partner = "partner-" + UUID.randomUUID();
        UUID deleted = UUID.randomUUID();
        try (Connection connection = dataSource.getConnection()) {
            recordDeleted(connection, partner, deleted);
        }
        Request refused = request(partner, deleted, null);
        assertEquals(NewRequestRows.Written.MEMBER_GONE, rows.write(refused, item(refused), null));
        assertNothingWritten(refused);
        Request other = request("other-" + partner, deleted, null);
        assertEquals(NewRequestRows.Written.CREATED, rows.write(other, item(other), null));
    }

    @Test
    void aSurveyResponseIsTakenForTheRequestWhileFree() throws Exception {
        UUID response = surveyResponse("partner-" + UUID.randomUUID(), "initial", null);
        Request request = request("partner-" + UUID.randomUUID(), UUID.randomUUID(), null);
        assertEquals(NewRequestRows.Written.CREATED, rows.write(request, item(request), new SurveyLinks.Link(response, "")));
        assertEquals(request.id + " " + request.memberId + " " + request.createdAt, surveyLink(response));
    }

    @Test
    void aSurveyResponseTakenWhileTheStatementWaitsLeavesNoRequest() throws Exception {
        UUID response = surveyResponse("partner-" + UUID.randomUUID(), "initial", null);
        Request first = request("partner-" + UUID.randomUUID(), UUID.randomUUID(), null);
        Request second = request("partner-" + UUID.randomUUID(), UUID.randomUUID(), null);
        try (Connection other = dataSource.getConnection()) {
            other.setAutoCommit(false);
            insertRequestRow(other, first);
            try (PreparedStatement take = other.prepareStatement("UPDATE survey_responses SET request_id = ? WHERE id = ?")) {
                take.setObject(1, first.id);
                take.setObject(2, response);
                assertEquals(1, take.executeUpdate());
            }
            Future<NewRequestRows.Written> written = creates.submit(
                    () -> rows.write(second, item(second), new SurveyLinks.Link(response, "")));
            await().atMost(Duration.ofSeconds(10)).until(() -> waiting("transactionid"));
            other.commit();
            assertEquals(NewRequestRows.Written.SURVEY_TAKEN, written.get(10, TimeUnit.SECONDS));
        }
        assertNothingWritten(second);
        assertEquals(first.id.toString(), surveyLink(response).split(" ")[0]);
        // The connection went back to the pool in autocommit: the next create on it commits.
        Request third = request("partner-" + UUID.randomUUID(), UUID.randomUUID(), null);
        assertEquals(NewRequestRows.Written.CREATED, rows.write(third, item(third), null));
        assertEquals(1L, count("SELECT count(*) FROM requests WHERE id = ?", third.id));
    }

    @Test
    void aReturningMembersResponseIsNotTakenForAnotherMember() throws Exception {
        UUID owner = UUID.randomUUID();
        UUID response = surveyResponse("partner-" + UUID.randomUUID(), "refill", owner);
        Request other = request("partner-" + UUID.randomUUID(), UUID.randomUUID(), null);
        assertEquals(NewRequestRows.Written.SURVEY_TAKEN, rows.write(other, item(other), new SurveyLinks.Link(response, "")));
        assertNothingWritten(other);
        Request owners = request("partner-" + UUID.randomUUID(), owner, null);
        assertEquals(NewRequestRows.Written.CREATED, rows.write(owners, item(owners), new SurveyLinks.Link(response, "")));
    }

    private static Request request(String partner, UUID member, String key) {
        Request request = new Request();
        request.id = UUID.randomUUID();
        request.partnerId = partner;
        request.memberId = member;
        request.status = RequestStatus.PENDING;
        request.idempotencyKey = key;
        request.itemCount = 1;
        request.createdAt = instant(1);
        request.updatedAt = instant(1);
        return request;
    }

    private static LineItem item(Request request) {
        LineItem item = new LineItem();
        item.id = UUID.randomUUID();
        item.requestId = request.id;
        item.partnerId = request.partnerId;
        item.requestCreatedAt = request.createdAt;
        item.drugId = "drug";
        item.drugName = "Drug";
        item.status = ItemStatus.PENDING;
        item.pharmacyId = "pharmacy";
        item.pharmacyMethod = "integration_a";
        item.createdAt = request.createdAt;
        item.updatedAt = request.createdAt;
        return item;
    }

    /** Microsecond instants, as PostgreSQL keeps them; each a second apart. */
    private static Instant instant(int seconds) {
        return Instant.now().truncatedTo(ChronoUnit.MICROS).plusSeconds(seconds);
    }

    private static void assertEveryColumnEqual(Object written, Object read) throws IllegalAccessException {
        assertNotNull(read, "the row was written");
        int columns = 0;
        for (Field field : written.getClass().getDeclaredFields()) {
            if (field.isAnnotationPresent(Column.class)) {
                Object expected = field.get(written);
                Object actual = field.get(read);
                if (expected instanceof BigDecimal number) {
                    assertEquals(0, number.compareTo((BigDecimal) actual), field.getName());
                } else {
                    assertEquals(expected, actual, field.getName());
                }
                if (!(expected == null || expected.equals(false))) {
                    columns++;
                }
            }
        }
        long mapped = List.of(written.getClass().getDeclaredFields()).stream().filter(f -> f.isAnnotationPresent(Column.class)).count();
        assertEquals(mapped, columns, "every mapped column was set to a value of its own before the write");
    }

    private void assertNothingWritten(Request request) throws SQLException {
        assertEquals(0L, count("SELECT count(*) FROM requests WHERE id = ?", request.id));
        assertEquals(0L, count("SELECT count(*) FROM line_items WHERE request_id = ?", request.id));
        assertEquals(0L, count("SELECT count(*) FROM history_entries WHERE request_id = ?", request.id));
        assertEquals(0L, count("SELECT count(*) FROM survey_responses WHERE request_id = ?", request.id));
    }

    private long count(String sql, UUID id) throws SQLException {
        try (Connection connection = dataSource.getConnection(); PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setObject(1, id);
            try (ResultSet result = statement.executeQuery()) {
                result.next();
                return result.getLong(1);
            }
        }
    }

    private List<String> history(UUID requestId) throws SQLException {
        try (Connection connection = dataSource.getConnection(); PreparedStatement statement = connection.prepareStatement(
                "SELECT request_id, item_id, action, by_actor, reason, at FROM history_entries WHERE request_id = ? ORDER BY id")) {
            statement.setObject(1, requestId);
            List<String> entries = new ArrayList<>();
            try (ResultSet result = statement.executeQuery()) {
                while (result.next()) {
                    entries.add(result.getString(1) + " " + result.getString(2) + " " + result.getString(3) + " " + result.getString(4)
                            + " " + result.getString(5) + " " + result.getObject(6, java.time.OffsetDateTime.class).toInstant());
                }
            }
            return entries;
        }
    }

    /** "request member linkedAt" of the response. */
    private String surveyLink(UUID response) throws SQLException {
        try (Connection connection = dataSource.getConnection(); PreparedStatement statement = connection.prepareStatement(
                "SELECT request_id, member_id, linked_at FROM survey_responses WHERE id = ?")) {
            statement.setObject(1, response);
            try (ResultSet result = statement.executeQuery()) {
                result.next();
                java.time.OffsetDateTime linked = result.getObject(3, java.time.OffsetDateTime.class);
                return result.getString(1) + " " + result.getString(2) + " " + (linked == null ? null : linked.toInstant());
            }
        }
    }

    private UUID surveyResponse(String partner, String mode, UUID member) throws SQLException {
        String survey = "survey-" + UUID.randomUUID();
        UUID response = UUID.randomUUID();
        try (Connection connection = dataSource.getConnection()) {
            try (PreparedStatement insert = connection.prepareStatement(
                    "INSERT INTO surveys (id, title, questions, created_at, updated_at) VALUES (?, 'Rows', '[]', now(), now())")) {
                insert.setString(1, survey);
                insert.executeUpdate();
            }
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO survey_responses (id, partner_id, survey_id, mode,"
                    + " member_id, answers, qualified, drug_ids, created_at) VALUES (?, ?, ?, ?, ?, '{}', true, '[]', now())")) {
                insert.setObject(1, response);
                insert.setString(2, partner);
                insert.setString(3, survey);
                insert.setString(4, mode);
                insert.setObject(5, member);
                insert.executeUpdate();
            }
        }
        return response;
    }

    private static void insertRequestRow(Connection connection, Request request) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO requests (id, partner_id, member_id, status,"
                + " idempotency_key, item_count, created_at, updated_at) VALUES (?, ?, ?, 'pending', ?, 1, now(), now())")) {
            insert.setObject(1, request.id);
            insert.setString(2, request.partnerId);
            insert.setObject(3, request.memberId);
            insert.setString(4, request.idempotencyKey);
            insert.executeUpdate();
        }
    }

    private static void recordDeleted(Connection connection, String partner, UUID member) throws SQLException {
        try (PreparedStatement record = connection.prepareStatement(
                "INSERT INTO deleted_members (partner_id, member_id, deleted_at) VALUES (?, ?, now())")) {
            record.setString(1, partner);
            record.setObject(2, member);
            record.executeUpdate();
        }
    }

    /** A lock of this type that some backend waits for. */
    private boolean waiting(String lockType) throws SQLException {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement waiting = connection.prepareStatement("SELECT count(*) FROM pg_locks WHERE locktype = ? AND NOT granted")) {
            waiting.setString(1, lockType);
            try (ResultSet result = waiting.executeQuery()) {
                result.next();
                return result.getLong(1) > 0;
            }
        }
    }
}
