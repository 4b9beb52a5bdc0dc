package com.telemed.billing.period;

import java.time.DateTimeException;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.temporal.IsoFields;
import java.time.temporal.TemporalAdjusters;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code period} query of {@code GET /v1/billing} (partner-api.md, Billing): a date in the
 * wanted period, as {@code YYYY-MM-DD}, {@code YYYY-MM} (the 15th of that month) or
 * {@code YYYY-Www} (an ISO week: its Monday, the first day of an ISO week). Absent, or any other
 * value (including a date that does not exist, such as {@code 2026-02-30}, or week 53 of a year
 * with 52), is today.
 */
public final class PeriodQuery {

    private static final Pattern DATE = Pattern.compile("^(\\d{4})-(\\d{2})-(\\d{2})$");
    private static final Pattern MONTH = Pattern.compile("^(\\d{4})-(\\d{2})$");
    private static final Pattern WEEK = Pattern.compile("^(\\d{4})-W(\\d{2})$");
    /** The day a {@code YYYY-MM} value stands for. */
    static final int MONTH_DAY = 15;

    private PeriodQuery() {
    }

    /** The date the query names, else {@code today}. */
    public static LocalDate target(String period, LocalDate today) {
        if (period == null) {
            return today;
        }
        try {
            Matcher date = DATE.matcher(period);
            if (date.matches()) {
                return LocalDate.of(number(date, 1), number(date, 2), number(date, 3));
            }
            Matcher month = MONTH.matcher(period);
            if (month.matches()) {
                return YearMonth.of(number(month, 1), number(month, 2)).atDay(MONTH_DAY);
            }
            Matcher week = WEEK.matcher(period);
            if (week.matches()) {
                return isoWeekMonday(number(week, 1), number(week, 2));
            }
        } catch (DateTimeException notADate) {
            return today;
        }
        return today;
    }

    /** Monday of ISO week {@code week} of ISO year {@code year}; a week the year does not have is not a date. */
    static LocalDate isoWeekMonday(int year, int week) {
        // 4 January is always in ISO week 1.
        LocalDate inWeekOne = LocalDate.of(year, 1, 4);
        long weeks = inWeekOne.range(IsoFields.WEEK_OF_WEEK_BASED_YEAR).getMaximum();
        if (week < 1 || week > weeks) {
            throw new DateTimeException("ISO year " + year + " has no week " + week);
        }
        return inWeekOne.with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY)).plusWeeks(week - 1L);
    }

    private static int number(Matcher matcher, int group) {
        return Integer.parseInt(matcher.group(group));
    }
}
