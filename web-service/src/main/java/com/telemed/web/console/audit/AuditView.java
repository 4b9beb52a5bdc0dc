package com.telemed.web.console.audit;

import java.util.List;

/**
 * The audit log page ({@code console-audit.html}): the filters as given, the entries newest first as the
 * gateway merges them, and the next page's address (the filters and {@code after}), or null after the last.
 */
public record AuditView(String actor, String action, String targetId, List<Row> rows, String nextHref) {

    /** One entry: {@code at} in UTC, the actor's type and their name (or id when none is known). */
    public record Row(String id, String at, String actorType, String actor, String action, String targetType, String targetId,
                      String partnerId) {
    }
}
