package com.telemed.webhook.support;

import com.telemed.testkit.quarkus.ServiceDatabase;

/**
 * The newest attempt kept on the delivery row ({@code deliveries.last_attempt_at}, issue 44, round 4) against what the
 * events page read before it: the {@code at} of the delivery's attempt of the greatest id.
 */
public final class LastAttempts {

    private LastAttempts() {
    }

    /** The newest attempt of each delivery, as the page's subquery read it. */
    public static final String NEWEST = "(SELECT a.at FROM delivery_attempts a WHERE a.delivery_id = d.id ORDER BY a.id DESC LIMIT 1)";

    /** How many of the partner's deliveries keep another time than their newest attempt's (0 expected). */
    public static long mismatches(String partnerId) {
        return ServiceDatabase.count("SELECT count(*) FROM deliveries d WHERE d.partner_id = ?"
                + " AND (d.last_attempt_at IS DISTINCT FROM " + NEWEST
                + " OR d.last_attempt_id IS DISTINCT FROM (SELECT max(a.id) FROM delivery_attempts a WHERE a.delivery_id = d.id))",
                partnerId);
    }
}
