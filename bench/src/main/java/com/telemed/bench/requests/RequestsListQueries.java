package com.telemed.bench.requests;

import com.telemed.bench.support.ListLoad;
import com.telemed.bench.support.NamedSql;
import com.telemed.requests.request.RequestQueries;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The queries of {@code GET /v1/requests} the list benchmark measures: every filter of the contract (no filter,
 * each status, startDate, endDate, both, a startDate with a time of day, a status with dates), and for each the
 * statements requests-service's {@code RequestQueries.list} runs for page 1, built by {@code RequestQueries}
 * itself (the counters' total, the part-day count a startDate with a time of day adds, the page), with the values
 * they are bound with: what {@link RequestsListExplain} EXPLAINs and what pgbench replays as the ceiling.
 */
final class RequestsListQueries {

    static final int LIMIT = 20;

    /** One statement of a page, its SQL named as the service's, and the values it is bound with. */
    record Statement(String title, NamedSql sql, Map<String, Object> values) {
    }

    /** A query: label, query string, and the filters as the service reads them (end: the day after endDate, exclusive). */
    record Query(String label, String query, String status, Instant start, Instant end) {

        List<Statement> statements(String partnerId) {
            RequestQueries.Days days = RequestQueries.Days.of(start, end);
            List<Statement> statements = new ArrayList<>();
            Map<String, Object> total = new HashMap<>(Map.of("partner", partnerId));
            if (status != null) {
                total.put("status", status);
            }
            RequestQueries.CounterSum sum = RequestQueries.CounterSum.of(status != null, days.fromDay(), days.toDay());
            sum.days().forEach((name, day) -> total.put(name, day.toString()));
            statements.add(new Statement("total from the counters", NamedSql.of(sum.sql()), total));
            if (days.partialStart() != null) {
                Map<String, Object> partial = new HashMap<>(Map.of("partner", partnerId, "start", days.partialStart().toString(),
                        "end", days.partialEnd().toString()));
                if (status != null) {
                    partial.put("status", status);
                }
                statements.add(new Statement("the part of startDate's day counted", NamedSql.of(RequestQueries.countSql(status != null)),
                        partial));
            }
            Map<String, Object> page = new HashMap<>(Map.of("partner", partnerId, "limit", LIMIT, "first", 0L, "reach", (long) LIMIT));
            if (status != null) {
                page.put("status", status);
            }
            if (start != null) {
                page.put("start", start.toString());
            }
            if (end != null) {
                page.put("end", end.toString());
            }
            statements.add(new Statement("page 1", NamedSql.of(RequestQueries.pageRowsSql(status != null, start != null, end != null)), page));
            return statements;
        }

        /**
         * The pgbench script of the page: the total's statements and the page's (its requests and line items joined in
         * it) as the service runs them. A statement's
         * variables are renamed when two statements bind one name to different values (the part-day's start and end).
         */
        ListLoad.Query load(String partnerId) {
            StringBuilder script = new StringBuilder();
            Map<String, String> variables = new LinkedHashMap<>();
            int n = 0;
            for (Statement statement : statements(partnerId)) {
                String sql = statement.sql().jdbc();
                StringBuilder named = new StringBuilder();
                int parameter = 0;
                for (char c : sql.toCharArray()) {
                    if (c == '?') {
                        String name = statement.sql().parameters().get(parameter++);
                        named.append(':').append(name).append(n);
                        variables.put(name + n, statement.values().get(name).toString());
                    } else {
                        named.append(c);
                    }
                }
                script.append(named).append(";\n");
                n++;
            }
            return new ListLoad.Query(label, "/v1/requests" + (query.isEmpty() ? "" : "?" + query), script.toString(), variables);
        }
    }

    private RequestsListQueries() {
    }

    /**
     * Every filter, on data spread over the two years before {@code today} (RequestsData: 60 % pending, 25 % approved,
     * 10 % denied, 5 % cancelled, no call_requested).
     */
    static List<Query> all(LocalDate today) {
        LocalDate yearAgo = today.minusDays(365);
        LocalDate windowStart = today.minusDays(200);
        LocalDate windowEnd = today.minusDays(171);
        Instant timeOfDay = today.minusDays(180).atTime(13, 30).toInstant(ZoneOffset.UTC);
        return List.of(
                new Query("no filter", "", null, null, null),
                new Query("status=pending (60 %)", "status=pending", "pending", null, null),
                new Query("status=approved (25 %)", "status=approved", "approved", null, null),
                new Query("status=cancelled (5 %)", "status=cancelled", "cancelled", null, null),
                new Query("status=call_requested (none)", "status=call_requested", "call_requested", null, null),
                new Query("startDate (last year)", "startDate=" + yearAgo, null, midnight(yearAgo), null),
                new Query("endDate (before last year)", "endDate=" + yearAgo, null, null, midnight(yearAgo.plusDays(1))),
                new Query("startDate + endDate (30 days)", "startDate=" + windowStart + "&endDate=" + windowEnd, null,
                        midnight(windowStart), midnight(windowEnd.plusDays(1))),
                new Query("startDate with a time of day", "startDate=" + timeOfDay, null, timeOfDay, null),
                new Query("status=pending + 30 days", "status=pending&startDate=" + windowStart + "&endDate=" + windowEnd, "pending",
                        midnight(windowStart), midnight(windowEnd.plusDays(1))),
                new Query("status=approved + time-of-day start", "status=approved&startDate=" + timeOfDay, "approved", timeOfDay, null));
    }

    private static Instant midnight(LocalDate day) {
        return day.atStartOfDay(ZoneOffset.UTC).toInstant();
    }
}
