package com.telemed.billing.period;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.DayOfWeek;
import java.time.Duration;
import java.time.LocalDate;
import java.time.temporal.ChronoUnit;
import java.time.temporal.IsoFields;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The period arithmetic of {@code GET /v1/billing} (partner-api.md, Billing; decisions.md, Members and billing). */
class BillingPeriodTest {

    private static final LocalDate TODAY = LocalDate.of(2026, 11, 25);

    @ParameterizedTest(name = "period={0} -> {1}")
    @CsvSource(nullValues = "null", value = {
            "null,          2026-11-25",
            "2026-02-28,    2026-02-28",
            "2024-02-29,    2024-02-29",
            "2026-02-29,    2026-11-25",   // not a date: today
            "2026-02-30,    2026-11-25",
            "2026-13-01,    2026-11-25",
            "2026-07,       2026-07-15",
            "2026-00,       2026-11-25",
            "2026-W01,      2025-12-29",   // ISO week 1 of 2026 starts in 2025
            "2026-W48,      2026-11-23",
            "2025-W53,      2026-11-25",   // 2025 has 52 ISO weeks
            "2026-W53,      2026-12-28",   // 2026 (from a Thursday) has 53
            "2020-W53,      2020-12-28",
            "2026-W00,      2026-11-25",
            "2026-w05,      2026-11-25",
            "26-11-25,      2026-11-25",
            "'',            2026-11-25",
            "2026-11-25T10:00:00Z, 2026-11-25",
            "yesterday,     2026-11-25"})
    void theQueryNamesADateOrToday(String period, LocalDate expected) {
        assertEquals(expected, PeriodQuery.target(period, TODAY));
    }

    @ParameterizedTest(name = "{0} monthly -> {1}..{2} {3}")
    @CsvSource({
            "2026-11-25, 2026-11-01, 2026-11-30, November 2026",
            "2024-02-10, 2024-02-01, 2024-02-29, February 2024",
            "2026-02-10, 2026-02-01, 2026-02-28, February 2026",
            "2026-12-31, 2026-12-01, 2026-12-31, December 2026"})
    void aMonthlyPeriodIsTheCalendarMonthInUtc(LocalDate target, LocalDate first, LocalDate last, String label) {
        BillingPeriod period = BillingPeriod.monthly(target);
        assertEquals(new BillingPeriod(first, last, label), period);
        assertEquals(first + "T00:00:00Z", period.start().toString());
        assertEquals(last + "T23:59:59.999Z", period.end().toString());
    }

    @ParameterizedTest(name = "{0} weekly from {1} -> {2}..{3}")
    @CsvSource({
            "2026-11-25, MONDAY,    2026-11-23, 2026-11-29",
            "2026-11-23, MONDAY,    2026-11-23, 2026-11-29",
            "2026-11-22, MONDAY,    2026-11-16, 2026-11-22",
            "2026-12-02, WEDNESDAY, 2026-12-02, 2026-12-08",
            "2026-12-01, WEDNESDAY, 2026-11-25, 2026-12-01",   // across a month boundary
            "2027-01-02, SUNDAY,    2026-12-27, 2027-01-02",   // across a year boundary
            "2021-01-03, MONDAY,    2020-12-28, 2021-01-03"})  // ISO week 53 of 2020
    void aWeeklyPeriodIsSevenDaysFromTheWeekday(LocalDate target, DayOfWeek weekday, LocalDate first, LocalDate last) {
        assertEquals(new BillingPeriod(first, last, "Week of " + first), BillingPeriod.weekly(target, weekday));
    }

    @ParameterizedTest(name = "billable since {0}: charged in {1}..{2} = {3}")
    @CsvSource({
            "2026-01-31, 2026-02-01, 2026-02-28, true",    // 31st rolls to 28 February
            "2024-01-31, 2024-02-01, 2024-02-29, true",    // to 29 February in a leap year
            "2026-03-31, 2026-04-01, 2026-04-30, true",    // to 30 April
            "2026-01-31, 2026-02-23, 2026-03-01, true",    // the week holding 28 February
            "2026-01-31, 2026-02-16, 2026-02-22, false",
            "2026-01-30, 2026-02-23, 2026-03-01, true",    // 30th: 28 February too
            "2024-01-30, 2024-02-23, 2024-02-29, true",    // 30th: 29 February in a leap year
            "2026-01-29, 2026-03-02, 2026-03-08, false",
            "2026-11-20, 2026-11-16, 2026-11-22, true",
            "2026-11-20, 2026-11-23, 2026-11-29, false",
            "2026-10-01, 2026-11-25, 2026-12-01, true",    // a week across a month: 1 December
            "2026-10-28, 2026-12-28, 2027-01-03, true"})   // across a year
    void theAnniversaryDayRollsToTheEndOfAShortMonth(LocalDate billingStart, LocalDate first, LocalDate last, boolean holds) {
        assertEquals(holds, new BillingPeriod(first, last, "").holdsAnniversaryOf(billingStart));
    }

    @Property
    void everyPeriodHoldsItsTargetAndTilesTheCalendar(@ForAll("days") LocalDate target, @ForAll DayOfWeek weekday) {
        for (BillingPeriod period : new BillingPeriod[] {BillingPeriod.monthly(target), BillingPeriod.weekly(target, weekday)}) {
            assertEquals(true, period.contains(target));
            BillingPeriod next = period.label().startsWith("Week")
                    ? BillingPeriod.weekly(period.lastDay().plusDays(1), weekday) : BillingPeriod.monthly(period.lastDay().plusDays(1));
            assertEquals(period.end().plusMillis(1), next.start(), "the next period starts the millisecond after this one ends");
        }
        BillingPeriod week = BillingPeriod.weekly(target, weekday);
        assertEquals(Duration.ofDays(7), Duration.between(week.start(), week.end().plusMillis(1)));
        assertEquals(weekday, week.firstDay().getDayOfWeek());
    }

    @Property
    void aMonthlyPeriodChargesEveryMemberOnce(@ForAll("days") LocalDate target, @ForAll("days") LocalDate billingStart) {
        assertEquals(true, BillingPeriod.monthly(target).holdsAnniversaryOf(billingStart));
    }

    @Property
    void fourOrFiveConsecutiveWeeksOfAMonthChargeAMemberExactlyOnce(@ForAll("days") LocalDate billingStart,
                                                                    @ForAll DayOfWeek weekday, @ForAll("days") LocalDate inMonth) {
        // Every week whose first day is in the month: the charge day falls in exactly one of them, or in none
        // when it is in the days before the month's first such week (counted in the previous month's weeks).
        LocalDate first = inMonth.withDayOfMonth(1);
        LocalDate last = inMonth.withDayOfMonth(inMonth.lengthOfMonth());
        int day = Math.min(billingStart.getDayOfMonth(), inMonth.lengthOfMonth());
        LocalDate charge = inMonth.withDayOfMonth(day);
        long holding = first.datesUntil(last.plusDays(1))
                .filter(date -> date.getDayOfWeek() == weekday)
                .map(date -> new BillingPeriod(date, date.plusDays(6), ""))
                .filter(week -> week.contains(charge))
                .count();
        BillingPeriod firstWeek = BillingPeriod.weekly(first, weekday);
        long expected = firstWeek.firstDay().isBefore(first) && firstWeek.contains(charge) ? 0 : 1;
        assertEquals(expected, holding);
    }

    @Property
    void anIsoWeekQueryNamesThatWeeksMonday(@ForAll("days") LocalDate day) {
        int year = day.get(IsoFields.WEEK_BASED_YEAR);
        int week = day.get(IsoFields.WEEK_OF_WEEK_BASED_YEAR);
        LocalDate monday = PeriodQuery.target("%04d-W%02d".formatted(year, week), TODAY);
        assertEquals(DayOfWeek.MONDAY, monday.getDayOfWeek());
        assertEquals(true, ChronoUnit.DAYS.between(monday, day) >= 0 && ChronoUnit.DAYS.between(monday, day) < 7);
    }

    @Provide
    Arbitrary<LocalDate> days() {
        return Arbitraries.integers().between(0, 365 * 400).map(offset -> LocalDate.of(1900, 1, 1).plusDays(offset));
    }
}
