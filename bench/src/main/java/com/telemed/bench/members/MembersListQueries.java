package com.telemed.bench.members;

import com.telemed.bench.support.ListLoad;
import com.telemed.bench.support.NamedSql;
import com.telemed.members.member.MemberQueries;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The queries of {@code GET /v1/members} the list benchmark measures: no filter, each status, searches (a common
 * last name, a rare one, an email fragment, an email domain, a term matching nothing, two letters) and a search
 * with a status; for each, the statements members-service's {@code MemberQueries.list} runs for page 1, built by
 * {@code MemberQueries} itself (the total: the counters without a search, else the
 * version of the partner's members a kept count is checked against, the count itself once per change; the page), with the
 * values they are bound with: what {@link MembersListExplain} EXPLAINs and what pgbench replays as the ceiling.
 */
final class MembersListQueries {

    static final int LIMIT = 20;

    /** One statement of a page, its SQL named as the service's, and the values it is bound with. */
    record Statement(String title, NamedSql sql, Map<String, Object> values) {
    }

    /** A query: label, status (null: none), search term (null: none). */
    record Query(String label, String status, String search) {

        String queryString() {
            List<String> parts = new ArrayList<>();
            if (search != null) {
                parts.add("search=" + URLEncoder.encode(search, StandardCharsets.UTF_8));
            }
            if (status != null) {
                parts.add("status=" + status);
            }
            return String.join("&", parts);
        }

        /**
         * The total's statement and the page's. {@code total} is what the list answers: a search whose page 1 has
         * rows and is not full takes its total from the page (MemberQueries.list), and the count is left out.
         */
        List<Statement> statements(String partnerId, long total) {
            return statements(partnerId, total, null);
        }

        /**
         * {@link #statements(String, long)}, but for a search whose page 1 is {@code pageIds} (null: not known) what
         * the service runs when that page is asked again with no change of the partner's members between (issue 44,
         * round 4: search pages kept): one statement, the version and the page's rows by id; the total is then the
         * page's or the kept count.
         */
        List<Statement> statements(String partnerId, long total, List<String> pageIds) {
            if (search != null && pageIds != null) {
                Map<String, Object> values = new HashMap<>();
                values.put("partnerId", partnerId);
                values.put("ids", "{" + String.join(",", pageIds) + "}");
                return List.of(new Statement("page 1 kept: the version and its members by id", NamedSql.of(MemberQueries.KEPT_PAGE_QUERY),
                        values));
            }
            String where = MemberQueries.where(status != null, search);
            Map<String, Object> values = new HashMap<>();
            values.put("partnerId", partnerId);
            if (status != null) {
                values.put("status", status);
            }
            if (search != null) {
                values.put("pattern", MemberQueries.pattern(search));
            }
            values.put("limit", LIMIT);
            values.put("offset", 0L);
            List<Statement> statements = new ArrayList<>();
            if (search == null) {
                statements.add(new Statement("total from the counters", NamedSql.of(MemberQueries.counterTotalQuery(status != null)), values));
            } else if (total == 0 || total >= LIMIT) {
                // What every page but the first after a change runs: the count is kept with the version (V12).
                statements.add(new Statement("total kept: the version of the partner's members read", NamedSql.of(MemberQueries.VERSION_QUERY),
                        values));
            }
            // The page SQL the service runs once the search's matches are known (from the total read before the rounds).
            statements.add(new Statement("page 1", NamedSql.of(search == null ? MemberQueries.pageQuery(where)
                    : MemberQueries.pageQuery(where, total)), values));
            return statements;
        }

        /**
         * A search's count with the version of the partner's members, which {@code MemberQueries.list} runs once per
         * change of the partner's members (the first page after it), for {@link MembersListExplain}; none without a
         * search or when the page tells the total.
         */
        List<Statement> counted(String partnerId, long total) {
            if (search == null || (total > 0 && total < LIMIT)) {
                return List.of();
            }
            Statement version = statements(partnerId, total).get(0);
            return List.of(new Statement("total counted, once per change of the partner's members",
                    NamedSql.of(MemberQueries.versionedCountQuery(MemberQueries.where(status != null, search))), version.values()));
        }

        /** The pgbench script of the page: the statements of {@link #statements}, pgbench's variables for the service's names. */
        ListLoad.Query load(String partnerId, long total) {
            return load(partnerId, total, null);
        }

        /** {@link #load(String, long)} with the statements of {@link #statements(String, long, List)}. */
        ListLoad.Query load(String partnerId, long total, List<String> pageIds) {
            StringBuilder script = new StringBuilder();
            Map<String, String> variables = new LinkedHashMap<>();
            for (Statement statement : statements(partnerId, total, pageIds)) {
                StringBuilder named = new StringBuilder();
                int parameter = 0;
                for (char c : statement.sql().jdbc().toCharArray()) {
                    if (c == '?') {
                        String name = statement.sql().parameters().get(parameter++);
                        named.append(':').append(name);
                        variables.put(name, statement.values().get(name).toString());
                    } else {
                        named.append(c);
                    }
                }
                script.append(named).append(";\n");
            }
            String qs = queryString();
            return new ListLoad.Query(label, "/v1/members" + (qs.isEmpty() ? "" : "?" + qs), script.toString(), variables);
        }
    }

    private MembersListQueries() {
    }

    /** On MembersData's members: 80 % active, 12 % paused, 8 % cancelled; "smith" about 10 % of them, "quackenbush" 10. */
    static List<Query> all() {
        return List.of(
                new Query("no filter", null, null),
                new Query("status=active (80 %)", "active", null),
                new Query("status=paused (12 %)", "paused", null),
                new Query("status=cancelled (8 %)", "cancelled", null),
                new Query("search=smith (common last name)", null, "smith"),
                new Query("search=quackenbush (rare last name)", null, "quackenbush"),
                new Query("search=4242 (email fragment)", null, "4242"),
                new Query("search=mail.test (email domain)", null, "mail.test"),
                new Query("search=zzqx (matches nothing)", null, "zzqx"),
                new Query("search=jo (2 letters)", null, "jo"),
                new Query("search=smith + status=paused", "paused", "smith"));
    }
}
