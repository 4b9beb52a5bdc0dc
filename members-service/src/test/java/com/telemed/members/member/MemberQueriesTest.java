package com.telemed.members.member;

import static com.telemed.members.member.MemberFixtures.input;
import static com.telemed.members.member.MemberFixtures.memberBody;
import static com.telemed.members.member.MemberFixtures.newPartner;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.testkit.time.Milliseconds;
import com.telemed.common.error.ApiException;
import com.telemed.common.request.RequestIds;
import com.telemed.members.FakeRequestsService;
import com.telemed.members.FakeRequestsServiceResource;
import com.telemed.testkit.quarkus.InfrastructureResource;
import io.quarkus.arc.Arc;
import io.quarkus.arc.ManagedContext;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Inject;
import jakarta.persistence.Column;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.Optional;
import java.util.UUID;
import org.jboss.logging.MDC;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The reads called directly: always one partner's rows, the list's paging, search and summaries. */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = FakeRequestsServiceResource.class, scope = TestResourceScope.GLOBAL)
class MemberQueriesTest {

    @Inject
    MemberQueries queries;

    @Inject
    MemberService members;

    @Inject
    FakeRequestsService requestsService;

    @BeforeEach
    void reset() {
        requestsService.reset();
    }

    @AfterEach
    void clearLogContext() {
        MDC.remove(RequestIds.MDC_KEY);
    }

    /** Creates a member and returns its id; a short pause keeps creation times distinct. */
    private UUID create(String partnerId, String firstName, String lastName, String email) throws Exception {
        UUID id = members.create(partnerId, input(memberBody(firstName, lastName, email))).id;
        Milliseconds.awaitNext();
        return id;
    }

    /**
     * Read as the resource reads it: no transaction (the summaries call runs on the executor
     * meanwhile, and must not share one), in a request context of its own on a thread of its own,
     * so each call sees what is stored now. The caller's request id goes with it, and the thread's
     * log context is checked to be as it was after the list.
     */
    private MemberQueries.Found list(String partnerId, String search, String status, long page, int limit) {
        Object requestId = MDC.get(RequestIds.MDC_KEY);
        try {
            return CompletableFuture.supplyAsync(() -> {
                ManagedContext requestContext = Arc.container().requestContext();
                requestContext.activate();
                if (requestId != null) {
                    MDC.put(RequestIds.MDC_KEY, requestId);
                }
                try {
                    MemberQueries.Found found = queries.list(partnerId, search, status, page, limit);
                    assertEquals(requestId, MDC.get(RequestIds.MDC_KEY), "the calling thread's log context is as it was");
                    return found;
                } finally {
                    MDC.remove(RequestIds.MDC_KEY);
                    requestContext.terminate();
                }
            }).join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw e;
        }
    }

    private static List<UUID> ids(MemberQueries.Found found) {
        return found.members().stream().map(member -> member.id).toList();
    }

    @Test
    void theListIsThePartnersNewestFirstWithExactTotalsOnEveryPage() throws Exception {
        String partnerId = newPartner();
        String other = newPartner();
        UUID foreign = create(other, "Not", "Mine", "not.mine@example.com");
        List<UUID> created = new ArrayList<>();
        for (int i = 1; i <= 5; i++) {
            created.add(create(partnerId, "Member" + i, "Family", "member" + i + "@example.com"));
        }
        List<UUID> newestFirst = new ArrayList<>(created);
        Collections.reverse(newestFirst);

        MemberQueries.Found first = list(partnerId, null, null, 1, 2);
        assertEquals(newestFirst.subList(0, 2), ids(first));
        assertEquals(5, first.total(), "a full page: counted");
        MemberQueries.Found last = list(partnerId, null, null, 3, 2);
        assertEquals(newestFirst.subList(4, 5), ids(last));
        assertEquals(5, last.total(), "a page that is not full tells the total");
        MemberQueries.Found past = list(partnerId, null, null, 4, 2);
        assertEquals(List.of(), ids(past));
        assertEquals(5, past.total());
        assertEquals(5, list(partnerId, null, null, Long.MAX_VALUE / 2, 100).total(), "an offset past any size");
        assertEquals(List.of(foreign), ids(list(other, null, null, 1, 20)));
        assertEquals(List.of(), ids(list(newPartner(), null, null, 1, 20)));
    }

    @Test
    void theSearchIsALiteralCaseInsensitiveSubstringOfOneFieldAndTheStatusExact() throws Exception {
        String partnerId = newPartner();
        UUID byFirst = create(partnerId, "Zelda", "Quinn", "zq@example.com");
        UUID percent = create(partnerId, "Ann", "100%", "ann@example.com");
        UUID underscore = create(partnerId, "Bea", "Lee", "the_zelda@example.com");
        create(newPartner(), "Zelda", "Elsewhere", "zelda@example.com");
        members.update(partnerId, Optional.of(byFirst), MemberFixtures.patch("{\"status\": \"paused\"}"));

        assertEquals(List.of(underscore, byFirst), ids(list(partnerId, "ZELDA", null, 1, 20)));
        assertEquals(List.of(percent), ids(list(partnerId, "%", null, 1, 20)));
        assertEquals(List.of(underscore), ids(list(partnerId, "_", null, 1, 20)));
        assertEquals(List.of(), ids(list(partnerId, "zelda quinn", null, 1, 20)), "across two fields: no match");
        assertEquals(List.of(byFirst), ids(list(partnerId, "zelda", "paused", 1, 20)));
        assertEquals(List.of(underscore), ids(list(partnerId, "zelda", "active", 1, 20)));
        assertEquals(3, list(partnerId, "", null, 1, 20).total(), "an empty term filters nothing");
    }

    /**
     * Once a search's matches are known to be few (MemberQueries.RARE_MATCHES), its pages come from the rare page SQL:
     * the same members in the same order, every page, with the same exact total, as the first ask's.
     */
    @Test
    void aRareSearchsPagesAreTheSameOnceItsMatchesAreKnown() throws Exception {
        String partnerId = newPartner();
        UUID oldest = create(partnerId, "Wren", "Hale", "wren.one@example.com");
        UUID middle = create(partnerId, "Ada", "Wrenfield", "ada@example.com");
        UUID newest = create(partnerId, "Bo", "Kay", "bo@wren.example");
        create(partnerId, "Cy", "Other", "cy@example.com");
        for (String status : new String[] {null, "active"}) {
            for (int ask = 0; ask < 2; ask++) {
                MemberQueries.Found all = list(partnerId, "WREN", status, 1, 20);
                assertEquals(List.of(newest, middle, oldest), ids(all), "ask " + ask);
                assertEquals(3, all.total());
                MemberQueries.Found second = list(partnerId, "wren", status, 2, 2);
                assertEquals(List.of(oldest), ids(second), "ask " + ask);
                assertEquals(3, second.total());
                MemberQueries.Found first = list(partnerId, "wren", status, 1, 2);
                assertEquals(List.of(newest, middle), ids(first), "ask " + ask);
                assertEquals(3, first.total());
            }
        }
        assertEquals(List.of(), ids(list(partnerId, "wren", "paused", 1, 20)));
    }

    @Test
    void theConditionsAlwaysLeadWithThePartnerAndEscapeTheTerm() {
        assertEquals(" WHERE partner_id = :partnerId", MemberQueries.where(false, null));
        assertEquals(" WHERE partner_id = :partnerId", MemberQueries.where(false, ""));
        assertEquals(" WHERE partner_id = :partnerId AND status = :status" + MemberQueries.SEARCH_CONDITION,
                MemberQueries.where(true, "ada"));
        assertEquals(" WHERE partner_id = :partnerId" + MemberQueries.SEARCH_CONDITION + MemberQueries.FIELDS_CONDITION,
                MemberQueries.where(false, "a\u001fb"), "a term with the separator is also checked field by field");
        assertTrue(MemberQueries.pageQuery(MemberQueries.where(false, null)).contains("m.partner_id = :partnerId"));
        assertEquals("100\\%\\_a\\\\b", MemberQueries.likeEscaped("100%_a\\b"));
    }

    @Test
    void theSummariesComeWithThePageAndTheCallersLogContextIsKept() throws Exception {
        String partnerId = newPartner();
        UUID withRequests = create(partnerId, "Ada", "Lovelace", "ada@example.com");
        UUID without = create(partnerId, "Bo", "Diddley", "bo@example.com");
        String requestId = UUID.randomUUID().toString();
        requestsService.summaries(partnerId, withRequests.toString(), new JsonArray().add(new JsonObject()
                .put("id", requestId).put("drugId", "finasteride").put("prescriptionName", "Rx finasteride")
                .put("dosage", "1 mg").put("status", "pending").put("caseNotes", null)
                .put("createdAt", "2026-11-21T09:30:00.000Z").put("updatedAt", "2026-11-21T09:30:00.000Z")));

        MDC.put(RequestIds.MDC_KEY, "queries-test");
        MemberQueries.Found found = list(partnerId, null, null, 1, 20);
        assertEquals("queries-test", MDC.get(RequestIds.MDC_KEY), "the calling thread's log context is as it was");

        assertEquals(List.of(without, withRequests), ids(found));
        assertEquals(List.of(UUID.fromString(requestId)),
                found.requests().get(withRequests).stream().map(RequestSummary::id).toList());
        assertNull(found.requests().get(without), "no summaries: missing from the map");
        assertEquals(1, requestsService.calls().size(), "one call for the page");

        requestsService.clearCalls();
        list(newPartner(), null, null, 1, 20);
        assertEquals(List.of(), requestsService.calls(), "an empty page asks nothing");
    }

    @Test
    void aFailedSummariesCallIsTheServicesOwn503() throws Exception {
        String partnerId = newPartner();
        create(partnerId, "Ada", "Lovelace", "ada@example.com");
        requestsService.failAlways(FakeRequestsService.Failure.UNAVAILABLE_503);
        ApiException failed = assertThrows(ApiException.class, () -> list(partnerId, null, null, 1, 20));
        assertEquals(503, failed.status());
        assertEquals("Service Unavailable", failed.getMessage());
    }

    @Test
    void getAndBatchSeeOnlyThePartnersMembers() throws Exception {
        String partnerId = newPartner();
        UUID a = create(partnerId, "A", "One", "a@example.com");
        UUID b = create(partnerId, "B", "Two", "b@example.com");
        UUID foreign = create(newPartner(), "F", "Four", "f@example.com");

        assertEquals(a, QuarkusTransaction.requiringNew().call(() -> queries.get(partnerId, Optional.of(a))).id);
        for (Optional<UUID> wrong : List.of(Optional.of(foreign), Optional.of(UUID.randomUUID()), Optional.<UUID>empty())) {
            ApiException notFound = assertThrows(ApiException.class,
                    () -> QuarkusTransaction.requiringNew().call(() -> queries.get(partnerId, wrong)));
            assertEquals(404, notFound.status());
            assertEquals(MemberQueries.NOT_FOUND, notFound.getMessage());
        }

        List<Member> batch = QuarkusTransaction.requiringNew()
                .call(() -> queries.batch(partnerId, List.of(b, foreign, a, UUID.randomUUID(), b)));
        assertEquals(List.of(b, a), batch.stream().map(member -> member.id).toList(), "in the order asked, each once");
        assertEquals(List.of(), queries.batch(partnerId, List.of()));
    }

    /**
     * The detached read (requests-service's lookup on every create) holds what the session's read holds, column by
     * column, for a member with every column set, so a column left out of its SELECT shows; and sees only the
     * partner's members.
     */
    @Test
    void theDetachedReadHoldsEveryColumnTheEntityHolds() throws Exception {
        String partnerId = newPartner();
        UUID id = members.create(partnerId, input("""
                {"firstName": "Ann", "lastName": "Lee", "email": "ann@example.com", "phone": "555-0100",
                 "dateOfBirth": "1990-04-01", "state": "CA", "gender": "f",
                 "address": {"street1": "1 Main St", "street2": "Apt 2", "city": "Springfield", "state": "CA", "zipCode": "90210"},
                 "shippingAddress": {"street1": "2 Side St", "street2": "Unit 3", "city": "Reno", "state": "NV",
                  "zipCode": "89501"}}""")).id;
        UUID foreign = create(newPartner(), "F", "Four", "f@example.com");

        Member stored = QuarkusTransaction.requiringNew().call(() -> queries.get(partnerId, Optional.of(id)));
        Member read = queries.read(partnerId, Optional.of(id));
        List<Field> columns = Arrays.stream(Member.class.getDeclaredFields()).filter(f -> f.isAnnotationPresent(Column.class)).toList();
        assertEquals(23, columns.size());
        for (Field column : columns) {
            assertNotNull(column.get(stored), column.getName());
            assertEquals(column.get(stored), column.get(read), column.getName());
        }
        for (Optional<UUID> wrong : List.of(Optional.of(foreign), Optional.of(UUID.randomUUID()), Optional.<UUID>empty())) {
            ApiException notFound = assertThrows(ApiException.class, () -> queries.read(partnerId, wrong));
            assertEquals(404, notFound.status());
            assertEquals(MemberQueries.NOT_FOUND, notFound.getMessage());
        }
    }

    /**
     * The list's rows are copied out of JDBC as the detached read's are: each holds what the session's read holds,
     * column by column, for a member with every column set, with a search, a status and neither.
     */
    @Test
    void theListsRowsHoldEveryColumnTheEntityHolds() throws Exception {
        String partnerId = newPartner();
        UUID id = members.create(partnerId, input("""
                {"firstName": "Bea", "lastName": "Oakes", "email": "bea@example.com", "phone": "555-0101",
                 "dateOfBirth": "1991-05-02", "state": "NY", "gender": "a",
                 "address": {"street1": "3 Main St", "street2": "Apt 4", "city": "Albany", "state": "NY", "zipCode": "12207"},
                 "shippingAddress": {"street1": "4 Side St", "street2": "Unit 5", "city": "Troy", "state": "NY",
                  "zipCode": "12180"}}""")).id;
        Milliseconds.awaitNext();
        create(partnerId, "Cy", "Other", "cy@example.com");

        Member stored = QuarkusTransaction.requiringNew().call(() -> queries.get(partnerId, Optional.of(id)));
        List<Field> columns = Arrays.stream(Member.class.getDeclaredFields()).filter(f -> f.isAnnotationPresent(Column.class)).toList();
        for (MemberQueries.Found found : List.of(list(partnerId, null, null, 1, 20), list(partnerId, "oakes", null, 1, 20),
                list(partnerId, null, "active", 1, 20), list(partnerId, "OAK", "active", 1, 1))) {
            Member listed = found.members().stream().filter(member -> id.equals(member.id)).findFirst().orElseThrow();
            for (Field column : columns) {
                assertNotNull(column.get(stored), column.getName());
                assertEquals(column.get(stored), column.get(listed), column.getName());
            }
        }
    }
}
