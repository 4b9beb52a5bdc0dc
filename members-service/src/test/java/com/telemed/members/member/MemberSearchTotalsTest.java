package com.telemed.members.member;

import static com.telemed.members.member.MemberFixtures.delete;
import static com.telemed.members.member.MemberFixtures.list;
import static com.telemed.members.member.MemberFixtures.memberBody;
import static com.telemed.members.member.MemberFixtures.newPartner;
import static com.telemed.members.member.MemberFixtures.post;
import static com.telemed.members.member.MemberFixtures.put;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
 * The totals of {@code GET /v1/members} with a search, kept with the version of the partner's members
 * (V12 {@code member_list_versions}, kept by triggers): after every kind of change a list can see (a
 * create, a name, email or status change, a delete, an operator's SQL), and after concurrent ones, the
 * next total equals the rows counted; a change it cannot see leaves the version alone.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = FakeRequestsServiceResource.class, scope = TestResourceScope.GLOBAL)
class MemberSearchTotalsTest {

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

    /** Each change moves the kept total of a search (a full page 1 first, so the total is counted, then kept). */
    @Test
    void everyChangeAListCanSeeMovesTheKeptTotal() throws Exception {
        String partner = newPartner();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ids.add(post(partner, memberBody("Wren", "Keptsmith" + i, "wren" + i + "@example.com")).then().statusCode(201)
                    .extract().path("member.id"));
        }
        post(partner, memberBody("Otto", "Other", "otto@example.com")).then().statusCode(201);
        assertEquals(3, total(partner, Map.of("search", "keptsmith")));
        assertEquals(3, total(partner, Map.of("search", "keptsmith")));
        long version = version(partner);

        String fourth = post(partner, memberBody("Wren", "Keptsmith3", "wren3@example.com")).then().statusCode(201).extract().path("member.id");
        assertEquals(4, total(partner, Map.of("search", "keptsmith")));
        put(partner, ids.get(0), "{\"lastName\": \"Renamed\"}").then().statusCode(200);
        assertEquals(3, total(partner, Map.of("search", "keptsmith")));
        put(partner, ids.get(0), "{\"email\": \"keptsmith@example.com\"}").then().statusCode(200);
        assertEquals(4, total(partner, Map.of("search", "keptsmith")));
        assertEquals(4, total(partner, Map.of("search", "keptsmith", "status", "active")));
        put(partner, ids.get(1), "{\"status\": \"paused\"}").then().statusCode(200);
        assertEquals(3, total(partner, Map.of("search", "keptsmith", "status", "active")));
        assertEquals(4, total(partner, Map.of("search", "keptsmith")));
        delete(partner, fourth).then().statusCode(204);
        assertEquals(3, total(partner, Map.of("search", "keptsmith")));
        update("UPDATE members SET first_name = 'Keptsmith' WHERE partner_id = ? AND last_name = 'Other'", partner);
        assertEquals(4, total(partner, Map.of("search", "keptsmith")));
        assertEquals(version + 6, version(partner));

        // A phone number is not searched: the version, and the kept totals, stay.
        put(partner, ids.get(2), "{\"phone\": \"+15550100\"}").then().statusCode(200);
        assertEquals(version + 6, version(partner));
        assertEquals(4, total(partner, Map.of("search", "keptsmith")));
    }

    /**
     * Eight writers on one partner (creates, renames into and out of the term, status changes, deletes)
     * while eight readers ask the search's total: nothing is lost, nothing deadlocks, the version counts
     * every change, and once the writers stop every total equals the rows counted.
     */
    @Test
    void concurrentChangesAndReadsLeaveTheTotalsExact() throws Exception {
        String partner = newPartner();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            ids.add(post(partner, memberBody("Bo", (i % 2 == 0 ? "Busysmith" : "Busyjones") + i, "bo" + i + "@example.com"))
                    .then().statusCode(201).extract().path("member.id"));
        }
        long before = version(partner);
        List<Future<?>> tasks = new ArrayList<>();
        for (int w = 0; w < 8; w++) {
            tasks.add(pool.submit(() -> {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                for (int step = 0; step < 30; step++) {
                    String id = ids.get(random.nextInt(ids.size()));
                    switch (random.nextInt(4)) {
                        case 0 -> update("UPDATE members SET last_name = ? WHERE id = ?::uuid",
                                random.nextBoolean() ? "Busysmith" : "Busyjones", id);
                        case 1 -> update("UPDATE members SET status = ? WHERE id = ?::uuid", STATUSES.get(random.nextInt(3)), id);
                        case 2 -> update("INSERT INTO members (id, partner_id, first_name, last_name, email, date_of_birth, state,"
                                + " status, street1, city, address_state, zip_code, created_at, updated_at) SELECT gen_random_uuid(),"
                                + " partner_id, first_name, last_name, email, date_of_birth, state, status, street1, city, address_state,"
                                + " zip_code, now(), now() FROM members WHERE id = ?::uuid", id);
                        default -> update("DELETE FROM members WHERE id = (SELECT id FROM members WHERE partner_id = ?"
                                + " AND id <> ALL (?::uuid[]) LIMIT 1)", partner, ids.toArray(new String[0]));
                    }
                }
                return null;
            }));
            tasks.add(pool.submit(() -> {
                for (int step = 0; step < 15; step++) {
                    total(partner, Map.of("search", "busysmith"));
                    total(partner, Map.of("search", "busysmith", "status", "active"));
                }
                return null;
            }));
        }
        for (Future<?> task : tasks) {
            task.get(120, TimeUnit.SECONDS);
        }
        assertTrue(version(partner) > before, "version moved");
        assertEquals(count("SELECT count(*) FROM members WHERE partner_id = ? AND search_text LIKE '%busysmith%'", partner),
                total(partner, Map.of("search", "busysmith")));
        assertEquals(count("SELECT count(*) FROM members WHERE partner_id = ? AND search_text LIKE '%busysmith%' AND status = 'active'",
                partner), total(partner, Map.of("search", "busysmith", "status", "active")));
        assertEquals(count("SELECT count(*) FROM members WHERE partner_id = ?", partner), total(partner, Map.of()));
    }

    private static long total(String partner, Map<String, ?> query) {
        Map<String, Object> all = new TreeMap<>(query);
        all.put("limit", 1);
        return list(partner, all).then().statusCode(200).extract().jsonPath().getLong("pagination.total");
    }

    private long version(String partner) throws Exception {
        return count("SELECT coalesce(max(version), 0) FROM member_list_versions WHERE partner_id = ?", partner);
    }

    private long count(String sql, Object... values) throws Exception {
        try (Connection db = dataSource.getConnection(); PreparedStatement select = db.prepareStatement(sql)) {
            for (int i = 0; i < values.length; i++) {
                select.setObject(i + 1, values[i]);
            }
            try (ResultSet rows = select.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
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
