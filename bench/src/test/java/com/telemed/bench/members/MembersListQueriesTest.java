package com.telemed.bench.members;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The SQL members-service builds can still be bound by this benchmark (without running it). */
class MembersListExplainTest {

    @Test
    void everyStatementIsBoundByName() {
        List<MembersListExplain.Explained> statements = MembersListExplain.statements("bench-partner");
        assertEquals(14, statements.size());
        for (MembersListExplain.Explained statement : statements) {
            assertEquals(List.of(), statement.sql().unbound(statement.values()), statement.title());
        }
        assertTrue(statements.get(5).sql().jdbc().contains("search_text LIKE lower(?)"), statements.get(5).sql().jdbc());
    }

    @Test
    void theGenericPlanPreparesPartnerThenPattern() {
        assertTrue(MembersListExplain.genericCount().positional().endsWith("WHERE partner_id = $1 AND search_text LIKE lower($2)"));
    }
}
