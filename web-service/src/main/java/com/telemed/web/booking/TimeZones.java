package com.telemed.web.booking;

import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * The time zones a patient picks from: the common IANA zones (every inhabited continent's main ones),
 * plus the one in use when it is not among them (a browser's own zone, {@code Asia/Kathmandu}). A zone
 * that is not an IANA region the JDK knows ({@code +02:00}, a typo) is not one: the page shows UTC.
 */
final class TimeZones {

    static final String UTC = "UTC";

    static final List<String> COMMON = List.of(
            "UTC",
            "Africa/Cairo", "Africa/Johannesburg", "Africa/Lagos", "Africa/Nairobi",
            "America/Anchorage", "America/Argentina/Buenos_Aires", "America/Bogota", "America/Chicago", "America/Denver",
            "America/Halifax", "America/Lima", "America/Los_Angeles", "America/Mexico_City", "America/New_York",
            "America/Phoenix", "America/Santiago", "America/Sao_Paulo", "America/St_Johns", "America/Toronto",
            "America/Vancouver",
            "Asia/Bangkok", "Asia/Dhaka", "Asia/Dubai", "Asia/Hong_Kong", "Asia/Jakarta", "Asia/Jerusalem", "Asia/Karachi",
            "Asia/Kolkata", "Asia/Manila", "Asia/Seoul", "Asia/Shanghai", "Asia/Singapore", "Asia/Tokyo",
            "Atlantic/Reykjavik",
            "Australia/Adelaide", "Australia/Brisbane", "Australia/Perth", "Australia/Sydney",
            "Europe/Amsterdam", "Europe/Athens", "Europe/Berlin", "Europe/Brussels", "Europe/Bucharest", "Europe/Dublin",
            "Europe/Helsinki", "Europe/Istanbul", "Europe/Kyiv", "Europe/Lisbon", "Europe/London", "Europe/Madrid",
            "Europe/Moscow", "Europe/Paris", "Europe/Prague", "Europe/Rome", "Europe/Stockholm", "Europe/Vienna",
            "Europe/Warsaw", "Europe/Zurich",
            "Pacific/Auckland", "Pacific/Honolulu");

    private static final Set<String> KNOWN = ZoneId.getAvailableZoneIds();

    private TimeZones() {
    }

    /** {@code tz} when it is an IANA zone the JDK knows, else {@link #UTC}. */
    static String valid(String tz) {
        return tz != null && KNOWN.contains(tz) ? tz : UTC;
    }

    /** The common zones and {@code current} (valid), UTC first, then by id; {@code current} selected. */
    static List<ZoneOption> options(String current) {
        List<String> ids = new ArrayList<>(COMMON);
        if (!ids.contains(current)) {
            ids.add(current);
        }
        ids.sort(Comparator.comparing((String id) -> !id.equals(UTC)).thenComparing(Comparator.naturalOrder()));
        return ids.stream().map(id -> new ZoneOption(id, label(id), id.equals(current))).toList();
    }

    /** {@code America/New_York} -> {@code America/New York}. */
    static String label(String id) {
        return id.replace('_', ' ');
    }

    /** One option of the zone select. */
    public record ZoneOption(String id, String label, boolean selected) {
    }
}
