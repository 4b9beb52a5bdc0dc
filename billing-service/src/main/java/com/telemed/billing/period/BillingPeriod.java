package com.telemed.billing.period;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.time.format.TextStyle;
import java.time.temporal.TemporalAdjusters;
import java.util.Locale;

/**
 * One billing period in UTC (decisions.md, "Members and billing"): the calendar month, or seven
 * days from 00:00 on the account's weekday, containing the target date. {@code start} is its first
 * instant, {@code end} its last (the millisecond before the next period starts), as the contract's
 * {@code period.startDate} and {@code period.endDate}.
 */
public record BillingPeriod(LocalDate firstDay, LocalDate lastDay, String label) {

    /** The calendar month containing {@code target}: {@code November 2026}. */
    public static BillingPeriod monthly(LocalDate target) {
        YearMonth month = YearMonth.from(target);
        return new BillingPeriod(month.atDay(1), month.atEndOfMonth(),
                month.getMonth().getDisplayName(TextStyle.FULL, Locale.ENGLISH) + " " + month.getYear());
    }

    /** The seven days from {@code weekday} containing {@code target}: {@code Week of 2026-11-16}. */
    public static BillingPeriod weekly(LocalDate target, DayOfWeek weekday) {
        LocalDate first = target.with(TemporalAdjusters.previousOrSame(weekday));
        return new BillingPeriod(first, first.plusDays(6), "Week of " + first);
    }

    public Instant start() {
        return firstDay.atStartOfDay(ZoneOffset.UTC).toInstant();
    }

    public Instant end() {
        return lastDay.plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant().minusMillis(1);
    }

    public boolean contains(LocalDate day) {
        return !day.isBefore(firstDay) && !day.isAfter(lastDay);
    }

    /**
     * Whether the monthly charge of a member billable since {@code billingStart} falls on a day of
     * this period: its anniversary day in each month the period touches, rolled back to the
     * month's last day when the month is shorter (31 in February is the 28th or 29th).
     */
    public boolean holdsAnniversaryOf(LocalDate billingStart) {
        int day = billingStart.getDayOfMonth();
        for (YearMonth month = YearMonth.from(firstDay); !month.isAfter(YearMonth.from(lastDay)); month = month.plusMonths(1)) {
            LocalDate charge = month.atDay(Math.min(day, month.lengthOfMonth()));
            if (contains(charge)) {
                return true;
            }
        }
        return false;
    }
}
