package com.telemed.bench.requests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The SQL requests-service builds can still be bound by this benchmark (without running it). */
class RequestsListExplainTest {

    @Test
    void everyStatementIsBoundByName() {
        List<RequestsListExplain.Explained> statements = RequestsListExplain.statements("bench-partner");
        assertEquals(8, statements.size());
        for (RequestsListExplain.Explained statement : statements) {
            assertEquals(List.of(), statement.sql().unbound(statement.values()), statement.title());
        }
        assertTrue(statements.get(1).sql().jdbc().contains("UNION ALL"), statements.get(1).sql().jdbc());
    }
}
