package com.telemed.common.retention;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RetentionRuleTest {

    @Test
    void theStatementDeletesOneBatchOfTheOldestRowsThatMatch() {
        RetentionRule rule = RetentionRule.of("deliveries", "id", "created_at", Duration.ofDays(30)).where("status <> 'retrying'");
        assertEquals("delete from deliveries where id in (select id from deliveries where created_at < ? and (status <> 'retrying')"
                + " order by created_at limit ? for update skip locked)", Pruner.statement(rule));
        assertEquals("delete from consumed_events where event_id in (select event_id from consumed_events where consumed_at < ?"
                        + " order by consumed_at limit ? for update skip locked)",
                Pruner.statement(RetentionRule.of("consumed_events", "event_id", "consumed_at", Duration.ofDays(30))));
    }

    @Test
    void namesArePlainAndTheRetentionPositive() {
        assertEquals("Not a plain SQL name: deliveries; drop table x",
                assertThrows(IllegalArgumentException.class,
                        () -> RetentionRule.of("deliveries; drop table x", "id", "created_at", Duration.ofDays(1))).getMessage());
        assertEquals("Not a plain SQL name: Created_At",
                assertThrows(IllegalArgumentException.class,
                        () -> RetentionRule.of("deliveries", "id", "Created_At", Duration.ofDays(1))).getMessage());
        assertEquals("The retention of deliveries must be positive, not PT0S",
                assertThrows(IllegalArgumentException.class,
                        () -> RetentionRule.of("deliveries", "id", "created_at", Duration.ZERO)).getMessage());
        assertEquals("The retention of deliveries must be positive, not PT-1H",
                assertThrows(IllegalArgumentException.class,
                        () -> RetentionRule.of("deliveries", "id", "created_at", Duration.ofHours(-1))).getMessage());
    }
}
