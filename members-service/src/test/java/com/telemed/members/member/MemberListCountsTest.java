package com.telemed.members.member;

import static com.telemed.members.member.MemberFixtures.delete;
import static com.telemed.members.member.MemberFixtures.list;
import static com.telemed.members.member.MemberFixtures.memberBody;
import static com.telemed.members.member.MemberFixtures.newPartner;
import static com.telemed.members.member.MemberFixtures.post;
import static com.telemed.members.member.MemberFixtures.put;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.telemed.members.FakeRequestsService;
import com.telemed.members.FakeRequestsServiceResource;
import com.telemed.testkit.quarkus.InfrastructureResource;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The list counters of V11 ({@code member_list_counts}, kept by triggers): after concurrent creates,
 * status changes and deletes, every counter equals the brute-force count of the rows, and the totals
 * of {@code GET /v1/members} without a search (none, each status) equal a count of the rows.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = FakeRequestsServiceResource.class, scope = TestResourceScope.GLOBAL)
class MemberListCountsTest {

    private static final List<String> STATUSES = List.of("active", "paused", "cancelled");

    @Inject
    FakeRequestsService requestsService;

    @Inject
    AgroalDataSource dataSource;

    private final ExecutorService pool = Executors.newFixedThreadPool(8);

    @BeforeEach
    void reset() {
        requestsService.reset();
    }

    @AfterEach
    void tearDown() {
        pool.shutdownNow();
    }

    @Test
    void concurrentCreatesStatusChangesAndDeletesThroughTheApiLeaveEveryCounterExact() throws Exception {
        String partner = newPartner();
        List<Future<?>> calls = new ArrayList<>();
        for (int i = 0; i < 48; i++) {
            int n = i;
            calls.add(pool.submit(() -> {
                String id = post(partner, memberBody("Ada", "Count" + n, "ada.count" + n + "@example.com"))
                        .then().statusCode(201).extract().path("member.id");
                switch (n % 4) {
                    case 1 -> put(partner, id, "{\"status\": \"paused\"}").then().statusCode(200);
                    case 2 -> {
                        put(partner, id, "{\"status\": \"cancelled\"}").then().statusCode(200);
                        put(partner, id, "{\"status\": \"active\"}").then().statusCode(200);
                    }
                    case 3 -> delete(partner, id).then().statusCode(204);
                    default -> { }
                }
            }));
        }
        for (Future<?> call : calls) {
            call.get(60, TimeUnit.SECONDS);
        }
        assertEquals(Map.of("active", 24L, "paused", 12L), counters(partner));
        assertExact(partner);
    }

    /**
     * Eight writers on one partner's three counter rows: status changes both ways between every pair,
     * inserts, deletes. Nothing is lost and nothing deadlocks (a change takes its two rows in key order).
     */
    @Test
    void concurrentWritesOnTheSameCounterRowsLoseNothing() throws Exception {
        String partner = newPartner();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            ids.add(post(partner, memberBody("Bo", "Rows" + i, "bo.rows" + i + "@example.com")).then().statusCode(201)
                    .extract().path("member.id"));
        }
        List<Future<?>> writers = new ArrayList<>();
        for (int w = 0; w < 8; w++) {
            writers.add(pool.submit(() -> {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                for (int step = 0; step < 60; step++) {
                    String id = ids.get(random.nextInt(ids.size()));
                    String status = STATUSES.get(random.nextInt(STATUSES.size()));
                    switch (random.nextInt(4)) {
                        case 0, 1 -> update("UPDATE members SET status = ? WHERE id = ?::uuid", status, id);
                        case 2 -> update("INSERT INTO members (id, partner_id, first_name, last_name, email, date_of_birth, state,"
                                + " status, street1, city, address_state, zip_code, created_at, updated_at) SELECT gen_random_uuid(),"
                                + " partner_id, first_name, last_name, email, date_of_birth, state, ?, street1, city, address_state,"
                                + " zip_code, now(), now() FROM members WHERE id = ?::uuid", status, id);
                        default -> update("DELETE FROM members WHERE id = (SELECT id FROM members WHERE partner_id = ?"
                                + " AND status = ? AND id <> ALL (?::uuid[]) LIMIT 1)", partner, status, ids.toArray(new String[0]));
                    }
                }
                return null;
            }));
        }
        for (Future<?> writer : writers) {
            writer.get(60, TimeUnit.SECONDS);
        }
        assertExact(partner);
    }

    /** Counters equal the rows grouped by status; the list's totals equal the rows counted. */
    private void assertExact(String partner) throws Exception {
        Map<String, Long> bruteForce = new TreeMap<>();
        try (Connection db = dataSource.getConnection();
             PreparedStatement select = db.prepareStatement("SELECT status, count(*) FROM members WHERE partner_id = ? GROUP BY status")) {
            select.setString(1, partner);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    bruteForce.put(rows.getString(1), rows.getLong(2));
                }
            }
        }
        assertEquals(bruteForce, counters(partner));
        assertEquals(bruteForce.values().stream().mapToLong(Long::longValue).sum(), total(partner, Map.of()));
        for (String status : STATUSES) {
            assertEquals(bruteForce.getOrDefault(status, 0L), total(partner, Map.of("status", status)), status);
        }
    }

    private static long total(String partner, Map<String, ?> query) {
        return list(partner, withLimit(query)).then().statusCode(200).extract().jsonPath().getLong("pagination.total");
    }

    private static Map<String, Object> withLimit(Map<String, ?> query) {
        Map<String, Object> all = new TreeMap<>(query);
        all.put("limit", 1);
        return all;
    }

    private Map<String, Long> counters(String partner) throws Exception {
        Map<String, Long> found = new TreeMap<>();
        try (Connection db = dataSource.getConnection(); PreparedStatement select = db.prepareStatement(
                "SELECT status, members FROM member_list_counts WHERE partner_id = ? AND members <> 0")) {
            select.setString(1, partner);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    found.put(rows.getString(1), rows.getLong(2));
                }
            }
        }
        return found;
    }

    private void update(String sql, Object... values) {
        try (Connection db = dataSource.getConnection(); PreparedStatement statement = db.prepareStatement(sql)) {
            for (int i = 0; i < values.length; i++) {
                statement.setObject(i + 1, values[i]);
            }
            statement.executeUpdate();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
