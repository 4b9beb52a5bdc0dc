package com.telemed.billing.summary;

import com.telemed.billing.period.BillingPeriod;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;

/**
 * Who a period's summary lists (partner-api.md, Billing, "Rules"; decisions.md, "Members and
 * billing"), for a member billable since {@code billingStart}:
 * <ul>
 *   <li>never when {@code billingStart} is after the period's end;</li>
 *   <li>monthly: when billing-active at some instant of the period (from their billing start on)
 *       or billing-active now;</li>
 *   <li>weekly: a member active now only when their anniversary day (rolled to a short month's
 *       last day) falls inside the window; a member not active now when they were billing-active
 *       at some instant of the period.</li>
 * </ul>
 * The weekly rule is read to the letter: the contract restricts the currently active members by
 * the anniversary and leaves "active at any point in the period" as it is for the others (a member
 * paused in the window still appears for the days they were active, as the Rules' last sentences
 * say of pausing).
 */
public final class Inclusion {

    private Inclusion() {
    }

    public static boolean includes(BillingPeriod period, boolean weekly, Instant billingStart, StatusTimeline timeline) {
        if (billingStart.isAfter(period.end())) {
            return false;
        }
        Instant from = billingStart.isAfter(period.start()) ? billingStart : period.start();
        boolean activeDuring = timeline.activeDuring(from, period.end());
        if (!weekly) {
            return activeDuring || timeline.activeNow();
        }
        if (timeline.activeNow()) {
            return period.holdsAnniversaryOf(startDay(billingStart));
        }
        return activeDuring;
    }

    /** The UTC day a member became billable; its day of month is {@code billingAnniversaryDay}. */
    public static LocalDate startDay(Instant billingStart) {
        return LocalDate.ofInstant(billingStart, ZoneOffset.UTC);
    }
}
