package com.telemed.billing.summary;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.telemed.billing.period.BillingPeriod;
import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Who a period lists (partner-api.md, Billing, "Rules"), as a table: the cycle and target, the
 * member's billing start and status timeline ({@code status@instant} points separated by
 * {@code ;}, empty for no member event yet), and whether the summary lists them.
 */
class InclusionTest {

    @ParameterizedTest(name = "{0} {1}: start {2}, timeline [{3}] -> {4}")
    @CsvSource(delimiter = '|', value = {
            // Monthly, November 2026.
            "monthly | 2026-11-15 | 2026-11-20T10:00:00Z | active@2026-11-01T00:00:00Z                                   | true",
            "monthly | 2026-11-15 | 2026-12-01T00:00:00Z | active@2026-11-01T00:00:00Z                                   | false",
            "monthly | 2026-11-15 | 2026-11-30T23:59:59.999Z | active@2026-11-01T00:00:00Z                               | true",
            "monthly | 2026-11-15 | 2026-10-05T00:00:00Z | active@2026-10-01T00:00:00Z;paused@2026-10-20T00:00:00Z       | false",
            "monthly | 2026-11-15 | 2026-10-05T00:00:00Z | active@2026-10-01T00:00:00Z;paused@2026-11-01T00:00:00Z       | false",
            "monthly | 2026-11-15 | 2026-10-05T00:00:00Z | active@2026-10-01T00:00:00Z;paused@2026-11-01T00:00:00.001Z   | true",
            "monthly | 2026-11-15 | 2026-10-05T00:00:00Z | active@2026-10-01T00:00:00Z;cancelled@2026-11-10T00:00:00Z    | true",
            // Paused through the month but active now: "or billing-active now".
            "monthly | 2026-11-15 | 2026-08-05T00:00:00Z | active@2026-08-01T00:00:00Z;paused@2026-08-15T00:00:00Z;active@2026-12-20T00:00:00Z | true",
            // Active only before the billing start, paused since: never billing-active.
            "monthly | 2026-11-15 | 2026-11-10T00:00:00Z | active@2026-10-01T00:00:00Z;paused@2026-11-05T00:00:00Z       | false",
            // Paused when approved, reactivated inside the month.
            "monthly | 2026-11-15 | 2026-10-10T00:00:00Z | active@2026-10-01T00:00:00Z;paused@2026-10-05T00:00:00Z;active@2026-11-29T00:00:00Z;cancelled@2026-12-01T00:00:00Z | true",
            // Only the approval reached the ledger yet: members start active.
            "monthly | 2026-11-15 | 2026-11-10T00:00:00Z |                                                               | true",
            // The first status reaches back before its own event.
            "monthly | 2026-11-15 | 2026-11-10T00:00:00Z | paused@2026-11-12T00:00:00Z                                   | false",
            // Weekly from Monday, the week of 2026-11-16 (16 to 22).
            "weekly  | 2026-11-18 | 2026-10-17T00:00:00Z | active@2026-10-01T00:00:00Z                                   | true",
            "weekly  | 2026-11-18 | 2026-10-23T00:00:00Z | active@2026-10-01T00:00:00Z                                   | false",
            "weekly  | 2026-11-18 | 2026-11-17T12:00:00Z | active@2026-11-01T00:00:00Z                                   | true",
            // Not active now but active inside the window: listed whatever the anniversary.
            "weekly  | 2026-11-18 | 2026-10-03T00:00:00Z | active@2026-10-01T00:00:00Z;paused@2026-11-18T00:00:00Z       | true",
            "weekly  | 2026-11-18 | 2026-10-03T00:00:00Z | active@2026-10-01T00:00:00Z;paused@2026-11-16T00:00:00Z       | false",
            "weekly  | 2026-11-18 | 2026-10-03T00:00:00Z | active@2026-10-01T00:00:00Z;paused@2026-11-16T00:00:00.001Z   | true",
            // The 31st rolls to 30 November, inside the week of 2026-11-30 (to 6 December).
            "weekly  | 2026-12-02 | 2026-10-31T00:00:00Z | active@2026-10-01T00:00:00Z                                   | true",
            // A leap day's anniversary: 28 February 2027 (rolled), not 1 March, then 29 March.
            "weekly  | 2027-02-24 | 2024-02-29T09:00:00Z | active@2024-02-01T00:00:00Z                                   | true",
            "weekly  | 2027-03-01 | 2024-02-29T09:00:00Z | active@2024-02-01T00:00:00Z                                   | false",
            "weekly  | 2027-03-30 | 2024-02-29T09:00:00Z | active@2024-02-01T00:00:00Z                                   | true",
    })
    void includes(String cycle, LocalDate target, Instant billingStart, String timeline, boolean included) {
        boolean weekly = cycle.equals("weekly");
        BillingPeriod period = weekly ? BillingPeriod.weekly(target, DayOfWeek.MONDAY) : BillingPeriod.monthly(target);
        assertEquals(included, Inclusion.includes(period, weekly, billingStart, timeline(timeline)));
    }

    static StatusTimeline timeline(String text) {
        List<StatusTimeline.Point> points = new ArrayList<>();
        if (text != null) {
            for (String point : text.split(";")) {
                String[] parts = point.trim().split("@");
                points.add(new StatusTimeline.Point(Instant.parse(parts[1]), parts[0]));
            }
        }
        return new StatusTimeline(points);
    }
}
