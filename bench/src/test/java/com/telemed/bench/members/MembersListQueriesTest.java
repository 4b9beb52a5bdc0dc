package com.telemed.bench.members;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.bench.support.ListLoad;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The SQL members-service builds can still be bound by this benchmark, and replayed by pgbench (without running either). */
class MembersListQueriesTest {

    @Test
    void everyStatementOfEveryQueryIsBoundByName() {
        List<MembersListQueries.Query> queries = MembersListQueries.all();
        assertEquals(11, queries.size());
        for (MembersListQueries.Query query : queries) {
            for (MembersListQueries.Statement statement : query.statements("bench-partner", 100)) {
                assertEquals(List.of(), statement.sql().unbound(statement.values()), query.label() + ": " + statement.title());
            }
        }
        assertTrue(queries.get(1).statements("p", 100).get(0).sql().jdbc().contains("FROM member_list_counts"));
        assertTrue(queries.get(4).statements("p", 100).get(0).sql().jdbc().contains("FROM member_list_versions"));
        assertTrue(queries.get(4).counted("p", 100).get(0).sql().jdbc().contains("search_text LIKE lower(?)"));
        assertEquals(List.of(), queries.get(4).counted("p", 100).get(0).sql().unbound(queries.get(4).counted("p", 100).get(0).values()));
        assertEquals(List.of(), queries.get(1).counted("p", 100));
    }

    /** A search whose page 1 is not full takes its total from the page: no count, as MemberQueries.list. */
    @Test
    void aShortSearchPageIsNotCounted() {
        MembersListQueries.Query rare = MembersListQueries.all().get(5);
        assertEquals(List.of("page 1"), rare.statements("p", 10).stream().map(MembersListQueries.Statement::title).toList());
        assertEquals(List.of("total kept: the version of the partner's members read", "page 1"), rare.statements("p", 0).stream().map(MembersListQueries.Statement::title).toList());
        ListLoad.Query load = MembersListQueries.all().get(10).load("p", 500);
        assertEquals("/v1/members?search=smith&status=paused", load.pathAndQuery());
        assertEquals(Map.of("partnerId", "p", "status", "paused", "pattern", "%smith%", "limit", "20", "offset", "0"), load.variables());
        assertTrue(load.sql().lines().allMatch(line -> line.endsWith(";") && !line.contains("?")), load.sql());
    }

    /** A search asked again replays its kept page (one statement: the version and the page's members by id); other queries do not. */
    @Test
    void aSearchAskedAgainReplaysItsKeptPage() {
        List<String> ids = List.of("6f1d2c3b-2222-4e5f-8a7b-9c0d1e2f3a4b", "0b9f3a4e-1111-4c6b-9d3e-3a1f0c2b7d10");
        ListLoad.Query rare = MembersListQueries.all().get(5).load("p", 2, ids);
        assertEquals(Map.of("partnerId", "p", "ids", "{" + String.join(",", ids) + "}"), rare.variables());
        assertTrue(rare.sql().contains("FROM member_list_versions") && rare.sql().contains("ANY(:ids)"), rare.sql());
        assertEquals(1, rare.sql().lines().count());
        MembersListQueries.Statement kept = MembersListQueries.all().get(4).statements("p", 500, ids).get(0);
        assertEquals(List.of(), kept.sql().unbound(kept.values()));
        ListLoad.Query status = MembersListQueries.all().get(1).load("p", 80_000, ids);
        assertTrue(status.sql().contains("FROM member_list_counts"), status.sql());
    }
}
