package com.telemed.members.member;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.members.FakeRequestsServiceResource;
import com.telemed.testkit.quarkus.InfrastructureResource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.sql.Connection;
import java.sql.DriverManager;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

/**
 * The list queries can use the V5 and V6 indexes, find-or-create its V4 one (the planner is told to avoid the plans it
 * would not choose on a large table): the search condition must read the column those indexes carry.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = FakeRequestsServiceResource.class, scope = TestResourceScope.GLOBAL)
class MemberIndexTest {

    private static Connection connect() throws Exception {
        var config = ConfigProvider.getConfig();
        return DriverManager.getConnection(
                config.getValue("quarkus.datasource.jdbc.url", String.class),
                config.getValue("quarkus.datasource.username", String.class),
                config.getValue("quarkus.datasource.password", String.class));
    }

    /** The plan of the statement after the settings ({@code SET ...}), each planner switch reset afterwards. */
    private static String plan(String sql, String... settings) throws Exception {
        try (Connection connection = connect(); var statement = connection.createStatement()) {
            statement.execute("SET enable_seqscan = off");
            for (String setting : settings) {
                statement.execute(setting);
            }
            StringBuilder plan = new StringBuilder();
            try (var rows = statement.executeQuery("EXPLAIN " + sql
                    .replace(":partnerId", "'partner-x'").replace(":status", "'paused'")
                    .replace(":pattern", "'%zelda%'").replace(":email", "'Zelda@Example.com'").replace(":limit", "20").replace(":offset", "0"))) {
                while (rows.next()) {
                    plan.append(rows.getString(1)).append('\n');
                }
            }
            return plan.toString();
        }
    }

    @Test
    void theSearchConditionCanUseTheTrigramIndex() throws Exception {
        // Only the search condition, and bitmap scans only: on a small table the planner rightly
        // prefers the partner's list index otherwise. What matters is that the trigram index
        // covers the column the condition reads.
        String plan = plan("SELECT id FROM members WHERE true" + MemberQueries.SEARCH_CONDITION,
                "SET enable_indexscan = off", "SET enable_indexonlyscan = off");
        assertTrue(plan.contains("members_partner_search_text_trgm_idx"), plan);
    }

    @Test
    void searchCountsAndPageIdsNeedNotReadTheTable() throws Exception {
        // Index-only scans need a visibility map; a long-lived table has one (autovacuum).
        try (Connection connection = connect(); var statement = connection.createStatement()) {
            statement.execute("VACUUM (ANALYZE) members");
        }
        for (boolean byStatus : new boolean[] {false, true}) {
            String where = MemberQueries.where(byStatus, "zelda");
            String count = plan("SELECT count(*) FROM members" + where, "SET enable_bitmapscan = off");
            assertTrue(count.contains("Index Only Scan using members_partner_list_idx"), count);
            String page = plan(MemberQueries.pageQuery(where), "SET enable_bitmapscan = off");
            assertTrue(page.contains("Index Only Scan using members_partner_list_idx") && !page.contains("Sort"), page);
        }
    }

    /**
     * A search known to be rare reads every match first (on a large table through the trigram index: bench/results/
     * members-list-plans.txt; on this small one any index of the partner), then sorts them: never a walk of the
     * partner's list index in order until the page is full.
     */
    @Test
    void aRareSearchsPageMaterializesItsMatchesThenSortsThem() throws Exception {
        for (boolean byStatus : new boolean[] {false, true}) {
            String where = MemberQueries.where(byStatus, "zelda");
            String page = plan(MemberQueries.pageQuery(where, MemberQueries.RARE_MATCHES));
            assertTrue(page.contains("CTE hits") && page.contains("CTE Scan on hits") && page.contains("Sort"), page);
        }
        assertEquals(MemberQueries.pageQuery(MemberQueries.where(false, "zelda")),
                MemberQueries.pageQuery(MemberQueries.where(false, "zelda"), MemberQueries.RARE_MATCHES + 1));
        assertEquals(MemberQueries.pageQuery(MemberQueries.where(false, "zelda")),
                MemberQueries.pageQuery(MemberQueries.where(false, "zelda"), null));
    }

    @Test
    void pagesAndStatusFiltersReadTheirIndexesInOrder() throws Exception {
        String all = plan(MemberQueries.pageQuery(MemberQueries.where(false, null)));
        assertTrue(all.contains("members_partner_list_idx") && !all.contains("Sort"), all);
        // Both indexes hold the status: on a large table the planner reads only the status's entries
        // of members_partner_status_created_idx (bench/members-list.sh), on this small one either.
        String byStatus = plan(MemberQueries.pageQuery(MemberQueries.where(true, null)));
        assertTrue(byStatus.matches("(?s).*Index Only Scan using members_partner_(status_created|list)_idx.*")
                && !byStatus.contains("Sort"), byStatus);
    }

    @Test
    void theBillingExportReadsItsKeysetIndexInOrder() throws Exception {
        for (boolean after : new boolean[] {false, true}) {
            String plan = plan(MemberQueries.billingExportPage(after)
                    .replace(":after", "'00000000-0000-0000-0000-000000000000'"));
            assertTrue(plan.contains("Index Scan using members_partner_id_idx") && !plan.contains("Sort"), plan);
        }
    }

    @Test
    void findOrCreatesEmailLookupReadsTheEmailIndexInOrder() throws Exception {
        String plan = plan(MemberService.EMAIL_MATCH);
        assertTrue(plan.contains("members_partner_email_idx") && !plan.contains("Sort"), plan);
    }
}
