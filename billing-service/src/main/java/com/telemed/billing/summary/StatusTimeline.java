package com.telemed.billing.summary;

import java.time.Instant;
import java.util.List;

/**
 * A member's statuses over time, in order: the status they were created with, then each change.
 * Before the first known point the member had that first status (a member exists before any
 * event about it). No point at all (only an approval reached the ledger so far) reads as
 * {@code active}: every member starts active (partner-api.md, Member status).
 */
public record StatusTimeline(List<Point> points) {

    public static final String ACTIVE = "active";

    public record Point(Instant at, String status) {
    }

    public StatusTimeline {
        points = List.copyOf(points);
    }

    /** Whether the member was active at some instant of {@code [from, to]} (both included). */
    public boolean activeDuring(Instant from, Instant to) {
        if (from.isAfter(to)) {
            return false;
        }
        if (points.isEmpty()) {
            return true;
        }
        for (int i = 0; i < points.size(); i++) {
            if (!ACTIVE.equals(points.get(i).status())) {
                continue;
            }
            // Active over [since, until): the first point reaches back to the beginning.
            boolean startsByTo = i == 0 || !points.get(i).at().isAfter(to);
            boolean lastsPastFrom = i + 1 == points.size() || points.get(i + 1).at().isAfter(from);
            if (startsByTo && lastsPastFrom) {
                return true;
            }
        }
        return false;
    }

    /** The status now: the last point's. */
    public boolean activeNow() {
        return points.isEmpty() || ACTIVE.equals(points.get(points.size() - 1).status());
    }
}
