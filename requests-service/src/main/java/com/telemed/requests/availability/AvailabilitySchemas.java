package com.telemed.requests.availability;

import static com.telemed.common.validation.Schemas.array;
import static com.telemed.common.validation.Schemas.number;
import static com.telemed.common.validation.Schemas.object;
import static com.telemed.common.validation.Schemas.string;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.telemed.common.validation.Issues;
import com.telemed.common.validation.ObjectSchema;
import com.telemed.common.validation.StringSchema;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.time.zone.ZoneRulesProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/** The availability body and the slots query (people-and-pages.md, "Availability and slots"): Zod issues, all at once. */
public final class AvailabilitySchemas {

    public static final Set<Integer> SLOT_MINUTES = Set.of(15, 20, 30, 45, 60);
    public static final int TIMEZONE_MAX = 64;
    /** Every quarter hour of a week is 672 intervals; more than that cannot be apart. */
    static final int WEEKLY_MAX = 672;
    public static final Duration RANGE_MAX = Duration.ofDays(31);

    public static final String INVALID_TIMEZONE = "Invalid timezone";
    static final String INVALID_TIME = "Invalid time";
    static final String END_NOT_AFTER_START = "end must be after start";
    static final String OVERLAP = "Overlaps another interval on the same weekday";
    static final String BAD_SLOT_MINUTES = "slotMinutes must be 15, 20, 30, 45 or 60";
    static final String TO_NOT_AFTER_FROM = "to must be after from";
    static final String RANGE_TOO_LONG = "The range may span at most 31 days";

    private static final Pattern START = Pattern.compile("([01]\\d|2[0-3]):[0-5]\\d");
    private static final Pattern END = Pattern.compile("([01]\\d|2[0-3]):[0-5]\\d|24:00");

    private AvailabilitySchemas() {
    }

    /** An IANA zone id the JDK has rules for ({@code America/New_York}); offsets such as {@code +02:00} are not zones. */
    public static StringSchema timezone() {
        return string().min(1).max(TIMEZONE_MAX)
                .refine(zone -> ZoneRulesProvider.getAvailableZoneIds().contains(zone.asText()), INVALID_TIMEZONE);
    }

    private static final ObjectSchema WEEKLY = object()
            .field("weekday", number().integer().min(1).max(7))
            .field("start", string().regex(START, INVALID_TIME))
            .field("end", string().regex(END, INVALID_TIME))
            .rule((interval, path, issues) -> {
                Optional<int[]> minutes = minutes(interval);
                if (minutes.isPresent() && minutes.get()[0] >= minutes.get()[1]) {
                    issues.custom(Issues.append(path, "end"), END_NOT_AFTER_START);
                }
            });

    /** {@code PUT /ops/v1/prescribers/:id/availability}: {@code {timezone, weekly: [{weekday, start, end}], slotMinutes}}. */
    public static final ObjectSchema PUT = object()
            .field("timezone", timezone())
            .field("weekly", array(WEEKLY).max(WEEKLY_MAX))
            .field("slotMinutes", number().integer().refine(value -> value.canConvertToInt() && SLOT_MINUTES.contains(value.intValue()), BAD_SLOT_MINUTES))
            .rule(AvailabilitySchemas::noOverlap);

    /**
     * Each interval that overlaps an earlier one of its weekday (in the body's order) is an issue at its
     * index; intervals that only touch ({@code 09:00-12:00}, {@code 12:00-17:00}) do not overlap.
     * Malformed intervals were reported by their fields and are left out.
     */
    private static void noOverlap(JsonNode body, List<Object> path, Issues issues) {
        JsonNode weekly = body.get("weekly");
        if (weekly == null || !weekly.isArray()) {
            return;
        }
        List<int[]> seen = new ArrayList<>();
        for (int i = 0; i < weekly.size(); i++) {
            JsonNode interval = weekly.get(i);
            JsonNode weekday = interval.get("weekday");
            Optional<int[]> minutes = minutes(interval);
            if (weekday == null || !weekday.isNumber() || !weekday.canConvertToExactIntegral() || !weekday.canConvertToInt()
                    || minutes.isEmpty() || minutes.get()[0] >= minutes.get()[1]) {
                continue;
            }
            int day = weekday.intValue();
            int start = minutes.get()[0];
            int end = minutes.get()[1];
            if (seen.stream().anyMatch(other -> other[0] == day && start < other[2] && other[1] < end)) {
                issues.custom(Issues.append(path, "weekly", i), OVERLAP);
            }
            seen.add(new int[] {day, start, end});
        }
    }

    /** An interval's start and end minutes, when both are well formed. */
    private static Optional<int[]> minutes(JsonNode interval) {
        if (interval == null || !interval.isObject()) {
            return Optional.empty();
        }
        JsonNode start = interval.get("start");
        JsonNode end = interval.get("end");
        if (start == null || end == null || !start.isTextual() || !end.isTextual()
                || !START.matcher(start.textValue()).matches() || !END.matcher(end.textValue()).matches()) {
            return Optional.empty();
        }
        return Optional.of(new int[] {WeeklyInterval.minutes(start.textValue()), WeeklyInterval.minutes(end.textValue())});
    }

    private static final ObjectSchema RANGE = object()
            .field("from", string().datetimeWithOffset())
            .field("to", string().datetimeWithOffset())
            .rule((query, path, issues) -> {
                Optional<Instant> from = instant(query.get("from"));
                Optional<Instant> to = instant(query.get("to"));
                if (from.isPresent() && to.isPresent()) {
                    if (!to.get().isAfter(from.get())) {
                        issues.custom(Issues.append(path, "to"), TO_NOT_AFTER_FROM);
                    } else if (Duration.between(from.get(), to.get()).compareTo(RANGE_MAX) > 0) {
                        issues.custom(Issues.append(path, "to"), RANGE_TOO_LONG);
                    }
                }
            });

    /**
     * The {@code ?from=&to=} of a slots read, strings as sent (an empty value counts as absent): both
     * required, ISO 8601 with {@code Z} or an offset, {@code to} after {@code from}, at most 31 days on.
     */
    public static SlotRange range(String from, String to) {
        ObjectNode query = JsonNodeFactory.instance.objectNode();
        if (from != null && !from.isEmpty()) {
            query.put("from", from);
        }
        if (to != null && !to.isEmpty()) {
            query.put("to", to);
        }
        RANGE.validate(query);
        return new SlotRange(OffsetDateTime.parse(from).toInstant(), OffsetDateTime.parse(to).toInstant());
    }

    private static Optional<Instant> instant(JsonNode value) {
        if (value == null || !value.isTextual() || !StringSchema.FOUR_DIGIT_YEAR.matcher(value.textValue()).lookingAt()) {
            return Optional.empty();
        }
        try {
            return Optional.of(OffsetDateTime.parse(value.textValue()).toInstant());
        } catch (DateTimeParseException malformed) {
            return Optional.empty(); // reported by the field's own check
        }
    }
}
