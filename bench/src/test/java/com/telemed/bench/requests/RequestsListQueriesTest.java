package com.telemed.bench.requests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.bench.support.ListLoad;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The SQL requests-service builds can still be bound by this benchmark, and replayed by pgbench (without running either). */
class RequestsListQueriesTest {

    private static final LocalDate TODAY = LocalDate.parse("2026-11-29");

    @Test
    void everyStatementOfEveryQueryIsBoundByName() {
        List<RequestsListQueries.Query> queries = RequestsListQueries.all(TODAY);
        assertEquals(11, queries.size());
        for (RequestsListQueries.Query query : queries) {
            for (RequestsListQueries.Statement statement : query.statements("bench-partner")) {
                assertEquals(List.of(), statement.sql().unbound(statement.values()), query.label() + ": " + statement.title());
            }
        }
        List<RequestsListQueries.Statement> pending = queries.get(1).statements("bench-partner");
        assertEquals(List.of("total from the counters", "page 1"), pending.stream().map(RequestsListQueries.Statement::title).toList());
        assertTrue(pending.get(0).sql().jdbc().contains("FROM request_list_totals"), pending.get(0).sql().jdbc());
        assertTrue(pending.get(1).sql().jdbc().contains("UNION ALL"), pending.get(1).sql().jdbc());
    }

    /** A startDate with a time of day: the counters from the next day, the rest of its day counted, each with its own variables. */
    @Test
    void aTimeOfDayAddsThePartDayCountWithVariablesOfItsOwn() {
        RequestsListQueries.Query query = RequestsListQueries.all(TODAY).get(8);
        assertEquals("startDate=2026-06-02T13:30:00Z", query.query());
        assertEquals(List.of("total from the counters", "the part of startDate's day counted", "page 1"),
                query.statements("p").stream().map(RequestsListQueries.Statement::title).toList());
        ListLoad.Query load = query.load("p");
        assertEquals("/v1/requests?startDate=2026-06-02T13:30:00Z", load.pathAndQuery());
        assertEquals(Map.ofEntries(Map.entry("partner0", "p"), Map.entry("headFrom0", "2026-06-03"), Map.entry("headTo0", "2026-07-01"),
                Map.entry("monthFrom0", "2026-07-01"), Map.entry("partner1", "p"), Map.entry("start1", "2026-06-02T13:30:00Z"),
                Map.entry("end1", "2026-06-03T00:00:00Z"), Map.entry("partner2", "p"), Map.entry("start2", "2026-06-02T13:30:00Z"),
                Map.entry("limit2", "20"), Map.entry("first2", "0")),
                load.variables());
        assertEquals(3, load.sql().lines().count());
        assertTrue(load.sql().lines().allMatch(line -> line.endsWith(";") && !line.contains("?")), load.sql());
    }
}
