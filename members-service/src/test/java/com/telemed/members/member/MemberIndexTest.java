package com.telemed.members.member;

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
 * The list queries can use the V3 and V5 indexes, find-or-create its V4 one (the planner is told to avoid sequential scans, as
 * it would on a large table): the search expression must stay identical to the index's.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = FakeRequestsServiceResource.class, scope = TestResourceScope.GLOBAL)
class MemberIndexTest {

    private static String plan(String sql) throws Exception {
        var config = ConfigProvider.getConfig();
        try (Connection connection = DriverManager.getConnection(
                config.getValue("quarkus.datasource.jdbc.url", String.class),
                config.getValue("quarkus.datasource.username", String.class),
                config.getValue("quarkus.datasource.password", String.class));
             var statement = connection.createStatement()) {
            statement.execute("SET enable_seqscan = off");
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
        // Only the search condition: on a small table the planner rightly prefers the partner's
        // btree otherwise. What matters is that the expression matches the index's.
        String plan = plan("SELECT id FROM members WHERE true" + MemberService.SEARCH_CONDITION);
        assertTrue(plan.contains("members_partner_search_trgm_idx"), plan);
    }

    @Test
    void pagesAndStatusFiltersReadTheirIndexesInOrder() throws Exception {
        String all = plan("SELECT * FROM members" + MemberService.where(false, false) + MemberService.ORDER_AND_PAGE);
        assertTrue(all.contains("members_partner_created_idx") && !all.contains("Sort"), all);
        String byStatus = plan("SELECT * FROM members" + MemberService.where(true, false) + MemberService.ORDER_AND_PAGE);
        assertTrue(byStatus.contains("members_partner_status_created_idx") && !byStatus.contains("Sort"), byStatus);
    }

    @Test
    void findOrCreatesEmailLookupReadsTheEmailIndexInOrder() throws Exception {
        String plan = plan(MemberService.EMAIL_MATCH);
        assertTrue(plan.contains("members_partner_email_idx") && !plan.contains("Sort"), plan);
    }
}
