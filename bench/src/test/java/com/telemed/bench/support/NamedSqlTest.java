package com.telemed.bench.support;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NamedSqlTest {

    @Test
    void namesBecomeQuestionMarksAndNumbersForPrepare() {
        NamedSql sql = NamedSql.of("SELECT x::text FROM t WHERE a = :partner AND b LIKE lower(:pattern)"
                + " AND c = ':not' AND d = :partner LIMIT :limit");
        assertEquals("SELECT x::text FROM t WHERE a = ? AND b LIKE lower(?) AND c = ':not' AND d = ? LIMIT ?", sql.jdbc());
        assertEquals(List.of("partner", "pattern", "partner", "limit"), sql.parameters());
        assertEquals("SELECT x::text FROM t WHERE a = $1 AND b LIKE lower($2) AND c = ':not' AND d = $1 LIMIT $3",
                sql.positional());
        assertEquals(List.of("pattern"), sql.unbound(Map.of("partner", "p", "limit", 20)));
    }
}
