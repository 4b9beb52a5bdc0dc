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
import io.restassured.path.json.JsonPath;
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
 * The pages of {@code GET /v1/members} with a search, their ids kept with the version of the partner's members
 * (issue 44, round 4; V12): asked again, a page is its kept members read again by id, with their current fields; after
 * every kind of change a list can see (a create, a name, email or status change, a delete, an operator's SQL), and
 * after concurrent ones, the next page is the rows the page's SQL selects.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = FakeRequestsServiceResource.class, scope = TestResourceScope.GLOBAL)
class MemberSearchPagesTest {

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
    void everyChangeAListCanSeeShowsOnTheNextPage() throws Exception {
        String partner = newPartner();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ids.add(post(partner, memberBody("Pia", "Pagesmith" + i, "pia" + i + "@example.com")).then().statusCode(201)
                    .extract().path("member.id"));
        }
        post(partner, memberBody("Otto", "Other", "otto@example.com")).then().statusCode(201);
        Map<String, Object> search = Map.of("search", "pagesmith", "limit", 2);
        assertPage(partner, search);
        assertPage(partner, search);
        assertPage(partner, Map.of("search", "pagesmith", "limit", 2, "page", 2));

        // Read your writes: a create, then at once the page that shows it.
        String fourth = post(partner, memberBody("Pia", "Pagesmith3", "pia3@example.com")).then().statusCode(201).extract().path("member.id");
        assertEquals(fourth, page(partner, search).getList("members.id").get(0));
        assertPage(partner, search);
        put(partner, fourth, "{\"lastName\": \"Renamed\"}").then().statusCode(200);
        assertPage(partner, search);
        put(partner, fourth, "{\"email\": \"pagesmith@example.com\"}").then().statusCode(200);
        assertPage(partner, search);
        assertPage(partner, Map.of("search", "pagesmith", "status", "active", "limit", 2));
        put(partner, ids.get(2), "{\"status\": \"paused\"}").then().statusCode(200);
        assertPage(partner, Map.of("search", "pagesmith", "status", "active", "limit", 2));
        assertPage(partner, search);
        delete(partner, fourth).then().statusCode(204);
        assertPage(partner, search);
        update("UPDATE members SET first_name = 'Pagesmith' WHERE partner_id = ? AND last_name = 'Other'", partner);
        assertPage(partner, search);

        // A phone number is not searched: the kept page stays, and shows the member's new number.
        put(partner, ids.get(2), "{\"phone\": \"+15550100\"}").then().statusCode(200);
        assertPage(partner, Map.of("search", "pagesmith", "limit", 5));
        assertEquals("+15550100", page(partner, Map.of("search", "pagesmith", "limit", 5))
                .getString("members.find { it.id == '" + ids.get(2) + "' }.phone"));
    }

    /**
     * Eight writers on one partner (creates, renames into and out of the term, status changes, deletes) while eight
     * readers ask the search's pages: once the writers stop, every page is the rows its SQL selects.
     */
    @Test
    void concurrentChangesAndReadsLeaveThePagesExact() throws Exception {
        String partner = newPartner();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            ids.add(post(partner, memberBody("Bo", (i % 2 == 0 ? "Pagebusy" : "Pagejones") + i, "bo" + i + "@example.com"))
                    .then().statusCode(201).extract().path("member.id"));
        }
        List<Future<?>> tasks = new ArrayList<>();
        for (int w = 0; w < 8; w++) {
            tasks.add(pool.submit(() -> {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                for (int step = 0; step < 30; step++) {
                    String id = ids.get(random.nextInt(ids.size()));
                    switch (random.nextInt(4)) {
                        case 0 -> update("UPDATE members SET last_name = ? WHERE id = ?::uuid",
                                random.nextBoolean() ? "Pagebusy" : "Pagejones", id);
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
                    page(partner, Map.of("search", "pagebusy", "limit", 5));
                    page(partner, Map.of("search", "pagebusy", "status", "active", "limit", 5));
                }
                return null;
            }));
        }
        for (Future<?> task : tasks) {
            task.get(120, TimeUnit.SECONDS);
        }
        assertPage(partner, Map.of("search", "pagebusy", "limit", 5));
        assertPage(partner, Map.of("search", "pagebusy", "status", "active", "limit", 5));
        assertPage(partner, Map.of("search", "pagebusy", "limit", 5, "page", 2));
    }

    /** The page's ids are those of the rows its SQL selects, newest first, and its total their count. */
    private void assertPage(String partner, Map<String, ?> query) throws Exception {
        String status = (String) query.get("status");
        int limit = ((Number) query.get("limit")).intValue();
        int page = query.containsKey("page") ? ((Number) query.get("page")).intValue() : 1;
        String where = " WHERE partner_id = ? AND search_text LIKE ?" + (status == null ? "" : " AND status = ?");
        List<Object> values = new ArrayList<>(List.of(partner, "%" + query.get("search") + "%"));
        if (status != null) {
            values.add(status);
        }
        List<String> expected = ids("SELECT id::text FROM members" + where + " ORDER BY created_at DESC, id DESC LIMIT " + limit
                + " OFFSET " + (page - 1) * limit, values.toArray());
        JsonPath answer = page(partner, query);
        assertEquals(expected, answer.getList("members.id"), query.toString());
        assertEquals(ids("SELECT count(*)::text FROM members" + where, values.toArray()).get(0),
                String.valueOf(answer.getLong("pagination.total")), query.toString());
    }

    private static JsonPath page(String partner, Map<String, ?> query) {
        return list(partner, new TreeMap<>(query)).then().statusCode(200).extract().jsonPath();
    }

    private List<String> ids(String sql, Object... values) throws Exception {
        try (Connection db = dataSource.getConnection(); PreparedStatement select = db.prepareStatement(sql)) {
            for (int i = 0; i < values.length; i++) {
                select.setObject(i + 1, values[i]);
            }
            List<String> ids = new ArrayList<>();
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    ids.add(rows.getString(1));
                }
            }
            return ids;
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
