package com.telemed.web.console.admin;

import java.util.List;

/**
 * A prescriber's page ({@code console-prescriber.html}): name, email, id and creation time (UTC), and their
 * weekly hours read-only ({@code hours} null when none are set).
 *
 * @param notice what was just done ({@code Prescriber created}), or null
 */
public record PrescriberView(String id, String name, String email, String createdAt, String notice, Hours hours) {

    /** The weekly hours: the zone, the slot length, one row per interval (weekday name, start, end). */
    public record Hours(String timezone, String slotMinutes, List<Interval> weekly) {
    }

    public record Interval(String weekday, String start, String end) {
    }
}
