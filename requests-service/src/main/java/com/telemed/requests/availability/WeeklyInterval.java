package com.telemed.requests.availability;

/**
 * One interval of a prescriber's weekly hours: on ISO {@code weekday} (1 = Monday ... 7 = Sunday),
 * from {@code startMinute} to {@code endMinute} minutes after local midnight, half-open
 * ({@code endMinute} 1440 is "24:00").
 */
public record WeeklyInterval(int weekday, int startMinute, int endMinute) {

    public static final int DAY_MINUTES = 24 * 60;

    public WeeklyInterval {
        if (weekday < 1 || weekday > 7 || startMinute < 0 || endMinute > DAY_MINUTES || startMinute >= endMinute) {
            throw new IllegalArgumentException("not a weekly interval: " + weekday + " " + startMinute + "-" + endMinute);
        }
    }

    /** {@code "HH:MM"} (and {@code "24:00"} for the end of the day) as minutes after midnight. */
    public static int minutes(String hhmm) {
        return Integer.parseInt(hhmm.substring(0, 2)) * 60 + Integer.parseInt(hhmm.substring(3, 5));
    }

    /** Minutes after midnight as {@code "HH:MM"}; 1440 is {@code "24:00"}. */
    public static String hhmm(int minutes) {
        return String.format("%02d:%02d", minutes / 60, minutes % 60);
    }
}
