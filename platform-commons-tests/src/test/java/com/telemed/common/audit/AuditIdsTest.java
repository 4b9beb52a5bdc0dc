package com.telemed.common.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** An audit entry's ids are kept as the service accepted them, never refused ({@link AuditTrail#id}). */
class AuditIdsTest {

    @Test
    void anyTextIsKeptButControlCharactersAndTheTailPastTheLongest() {
        assertNull(AuditTrail.id(null));
        assertNull(AuditTrail.id(""));
        assertEquals("odd id é+*", AuditTrail.id("odd id é+*"));
        assertEquals("a\uFFFDb\uFFFDc", AuditTrail.id("a\u0000b\nc"));
        assertEquals("x".repeat(AuditTrail.LONGEST_ID), AuditTrail.id("x".repeat(AuditTrail.LONGEST_ID + 1)));
    }
}
