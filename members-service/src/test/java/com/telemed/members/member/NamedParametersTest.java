package com.telemed.members.member;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.regex.Matcher;
import org.junit.jupiter.api.Test;

/** The list's SQL names its parameters {@code :name}; JDBC gets them as {@code ?} in that order, casts left alone. */
class NamedParametersTest {

    @Test
    void namedParametersAreFoundInOrderAndCastsAreNotParameters() {
        String sql = "SELECT id FROM members WHERE partner_id = :partnerId AND status = :status"
                + " AND created_at::date > :since ORDER BY created_at DESC LIMIT :limit";
        List<String> names = new java.util.ArrayList<>();
        Matcher parameter = MemberQueries.NAMED.matcher(sql);
        while (parameter.find()) {
            names.add(parameter.group(1));
        }
        assertEquals(List.of("partnerId", "status", "since", "limit"), names);
    }

    @Test
    void everyListStatementNamesOnlyTheValuesTheListBinds() {
        List<String> bound = List.of("partnerId", "status", "pattern", "limit", "offset");
        for (String sql : List.of(MemberQueries.pageQuery(MemberQueries.where(true, "smith")),
                MemberQueries.rarePageQuery(MemberQueries.where(false, "smith")),
                MemberQueries.counterTotalQuery(true))) {
            Matcher parameter = MemberQueries.NAMED.matcher(sql);
            while (parameter.find()) {
                assertTrue(bound.contains(parameter.group(1)), parameter.group(1) + " in " + sql);
            }
        }
    }

    /** A search page's kept rows (issue 44, round 4): the partner's, by the kept ids only. */
    @Test
    void theKeptPageNamesThePartnerAndTheIds() {
        List<String> names = new java.util.ArrayList<>();
        Matcher parameter = MemberQueries.NAMED.matcher(MemberQueries.KEPT_PAGE_QUERY);
        while (parameter.find()) {
            names.add(parameter.group(1));
        }
        assertEquals(List.of("partnerId", "partnerId", "ids"), names);
    }
}
