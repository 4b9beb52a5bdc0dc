package com.telemed.requests.availability;

import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.zone.ZoneRules;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * The slot arithmetic (people-and-pages.md, "Availability and slots"): a prescriber's weekly hours,
 * wall-clock times in their zone, cut into slots of {@code slotMinutes} of real time. Pure: no
 * clock, no database; the caller passes now and the booked spans.
 *
 * <p>For each local date and each interval of its weekday, the candidate starts are the interval's
 * start and every {@code slotMinutes} after it, as wall-clock times, while they are before the
 * interval's end. Then, by the zone's rules of that date:
 * <ul>
 *   <li>a start that does not exist (in a spring-forward gap) is skipped;</li>
 *   <li>an ambiguous start (in a fall-back overlap) is taken at its earlier offset, the first time
 *       the clock shows it;</li>
 *   <li>each slot lasts exactly {@code slotMinutes} of real time, and must end by the interval's
 *       end: that wall-clock time at its earlier offset, or, when it does not exist, the moment of
 *       the transition (when the clock jumps past it);</li>
 *   <li>across a gap a slot can run into the next candidate (45-minute slots over a one-hour
 *       jump): a candidate that starts before the slot before it ends is dropped.</li>
 * </ul>
 * So the slots are sorted and never overlap, each lies within its interval's real span, and on a
 * date without a transition they are exactly the grid.
 */
public record WeeklySchedule(ZoneId zone, List<WeeklyInterval> weekly, int slotMinutes) {

    public WeeklySchedule {
        weekly = List.copyOf(weekly);
        if (slotMinutes <= 0) {
            throw new IllegalArgumentException("slotMinutes " + slotMinutes);
        }
    }

    /**
     * The open slots that start in {@code [from, to)}, not before {@code now}, and overlap none of
     * {@code booked}; sorted by start.
     */
    public List<TimeSpan> slots(Instant from, Instant to, Instant now, Collection<TimeSpan> booked) {
        Instant earliest = from.isAfter(now) ? from : now;
        List<TimeSpan> open = new ArrayList<>();
        for (TimeSpan slot : candidates(from, to)) {
            if (!slot.startTime().isBefore(earliest) && slot.startTime().isBefore(to)
                    && booked.stream().noneMatch(slot::overlaps)) {
                open.add(slot);
            }
        }
        return open;
    }

    /** Whether a slot of these hours starts exactly at {@code start} (booked or not, past or not). */
    public boolean startsSlot(Instant start) {
        return candidates(start, start.plusMillis(1)).stream().anyMatch(slot -> slot.startTime().equals(start));
    }

    /** Every slot of the hours whose local date is near {@code [from, to)}, sorted, none overlapping. */
    List<TimeSpan> candidates(Instant from, Instant to) {
        ZoneRules rules = zone.getRules();
        // A day of margin on each side: a local date's slots can start before its midnight in UTC, and a
        // fall-back transition at midnight makes local dates go back an hour.
        LocalDate first = LocalDate.ofInstant(from, zone).minusDays(1);
        LocalDate last = LocalDate.ofInstant(to, zone).plusDays(1);
        List<WeeklyInterval> ordered = weekly.stream()
                .sorted(Comparator.comparingInt(WeeklyInterval::weekday).thenComparingInt(WeeklyInterval::startMinute))
                .toList();
        Duration length = Duration.ofMinutes(slotMinutes);
        List<TimeSpan> all = new ArrayList<>();
        for (LocalDate date = first; !date.isAfter(last); date = date.plusDays(1)) {
            DayOfWeek weekday = date.getDayOfWeek();
            LocalDateTime midnight = date.atStartOfDay();
            for (WeeklyInterval interval : ordered) {
                if (interval.weekday() != weekday.getValue()) {
                    continue;
                }
                Instant spanEnd = resolveEnd(midnight.plusMinutes(interval.endMinute()), rules);
                for (int minute = interval.startMinute(); minute < interval.endMinute(); minute += slotMinutes) {
                    LocalDateTime local = midnight.plusMinutes(minute);
                    if (rules.getValidOffsets(local).isEmpty()) {
                        continue; // in a spring-forward gap: that wall-clock time does not exist
                    }
                    Instant start = local.atZone(zone).withEarlierOffsetAtOverlap().toInstant();
                    Instant end = start.plus(length);
                    if (!end.isAfter(spanEnd)) {
                        all.add(new TimeSpan(start, end));
                    }
                }
            }
        }
        all.sort(Comparator.comparing(TimeSpan::startTime));
        List<TimeSpan> kept = new ArrayList<>(all.size());
        for (TimeSpan slot : all) {
            if (kept.isEmpty() || !slot.startTime().isBefore(kept.get(kept.size() - 1).endTime())) {
                kept.add(slot);
            }
        }
        return kept;
    }

    /** An interval's end as a moment: at its earlier offset, or, in a gap, when the clock jumps past it. */
    private Instant resolveEnd(LocalDateTime local, ZoneRules rules) {
        if (rules.getValidOffsets(local).isEmpty()) {
            return rules.getTransition(local).getInstant();
        }
        return local.atZone(zone).withEarlierOffsetAtOverlap().toInstant();
    }
}
