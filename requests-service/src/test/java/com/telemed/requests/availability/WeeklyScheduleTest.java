package com.telemed.requests.availability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.RandomDistribution;
import net.jqwik.api.Tuple;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The slot arithmetic ({@link WeeklySchedule}): the known daylight-saving days of four zones give
 * exactly the expected slots, and for random weekly hours, zones, slot lengths, ranges across
 * transitions in both directions, "now" and booked spans, every slot lasts its length of real time,
 * lies inside the local hours, overlaps no other slot and no booked span, is sorted and not in the
 * past; on a day without a transition nearby every grid slot is there.
 */
class WeeklyScheduleTest {

    private static final List<String> ZONES = List.of("America/New_York", "Europe/Berlin", "Australia/Lord_Howe",
            "Pacific/Chatham", "America/Santiago", "Asia/Kolkata", "UTC");
    private static final Instant LONG_AGO = Instant.parse("2000-01-01T00:00:00Z");

    // ---- The known days ---------------------------------------------------------------------

    static Stream<Arguments> knownDays() {
        return Stream.of(
                // New York springs forward at 02:00 (EST -> EDT): 02:00 and 02:30 do not exist.
                Arguments.of("America/New_York", "2026-03-08", "01:00", "04:00", 30,
                        List.of("2026-03-08T06:00:00Z", "2026-03-08T06:30:00Z", "2026-03-08T07:00:00Z", "2026-03-08T07:30:00Z")),
                // ... hours that end in the gap end when the clock jumps (07:00Z).
                Arguments.of("America/New_York", "2026-03-08", "01:00", "02:30", 30,
                        List.of("2026-03-08T06:00:00Z", "2026-03-08T06:30:00Z")),
                // ... 45-minute slots: 01:30 EST lasts until 03:15 EDT, so the 03:00 candidate is dropped,
                // and 03:45 would end after 04:00.
                Arguments.of("America/New_York", "2026-03-08", "00:00", "04:00", 45,
                        List.of("2026-03-08T05:00:00Z", "2026-03-08T05:45:00Z", "2026-03-08T06:30:00Z")),
                // New York falls back at 02:00 (EDT -> EST): 01:00 is taken at EDT, the repeated hour is not offered.
                Arguments.of("America/New_York", "2026-11-01", "00:00", "03:00", 60,
                        List.of("2026-11-01T04:00:00Z", "2026-11-01T05:00:00Z", "2026-11-01T07:00:00Z")),
                // Berlin springs forward at 02:00 (CET -> CEST).
                Arguments.of("Europe/Berlin", "2026-03-29", "01:00", "04:00", 60,
                        List.of("2026-03-29T00:00:00Z", "2026-03-29T01:00:00Z")),
                // Berlin falls back at 03:00 (CEST -> CET): 02:00 at CEST.
                Arguments.of("Europe/Berlin", "2026-10-25", "01:00", "04:00", 60,
                        List.of("2026-10-24T23:00:00Z", "2026-10-25T00:00:00Z", "2026-10-25T02:00:00Z")),
                // Lord Howe falls back half an hour at 02:00 (+11:00 -> +10:30): 01:30 at +11:00.
                Arguments.of("Australia/Lord_Howe", "2026-04-05", "01:00", "03:00", 30,
                        List.of("2026-04-04T14:00:00Z", "2026-04-04T14:30:00Z", "2026-04-04T15:30:00Z", "2026-04-04T16:00:00Z")),
                // Lord Howe springs forward half an hour at 02:00 (+10:30 -> +11:00): 02:00 does not exist.
                Arguments.of("Australia/Lord_Howe", "2026-10-04", "01:00", "03:00", 30,
                        List.of("2026-10-03T14:30:00Z", "2026-10-03T15:00:00Z", "2026-10-03T15:30:00Z")),
                // Chatham springs forward at 02:45 (+12:45 -> +13:45): 03:00 does not exist.
                Arguments.of("Pacific/Chatham", "2026-09-27", "02:00", "05:00", 60,
                        List.of("2026-09-26T13:15:00Z", "2026-09-26T14:15:00Z")),
                // Chatham falls back at 03:45 (+13:45 -> +12:45): 03:00 at +13:45.
                Arguments.of("Pacific/Chatham", "2026-04-05", "02:00", "05:00", 60,
                        List.of("2026-04-04T12:15:00Z", "2026-04-04T13:15:00Z", "2026-04-04T15:15:00Z")));
    }

    @ParameterizedTest(name = "{0} {1} {2}-{3} every {4} min")
    @MethodSource("knownDays")
    void theKnownDaylightSavingDaysGiveExactlyTheseSlots(String zone, LocalDate day, String start, String end, int minutes,
                                                          List<String> expected) {
        WeeklySchedule schedule = new WeeklySchedule(ZoneId.of(zone),
                List.of(new WeeklyInterval(day.getDayOfWeek().getValue(), WeeklyInterval.minutes(start), WeeklyInterval.minutes(end))),
                minutes);
        Instant from = day.minusDays(2).atStartOfDay(ZoneId.of("UTC")).toInstant();
        List<TimeSpan> slots = schedule.slots(from, from.plus(Duration.ofDays(4)), LONG_AGO, List.of());
        assertEquals(expected, slots.stream().map(slot -> slot.startTime().toString()).toList());
        for (TimeSpan slot : slots) {
            assertEquals(Duration.ofMinutes(minutes), Duration.between(slot.startTime(), slot.endTime()));
            assertTrue(schedule.startsSlot(slot.startTime()), slot.toString());
            assertFalse(schedule.startsSlot(slot.startTime().plusSeconds(60)), slot.toString());
        }
    }

    // ---- Properties -------------------------------------------------------------------------

    /** One generated situation: hours, a range near a transition of the zone, now, and booked spans. */
    record Case(WeeklySchedule schedule, Instant from, Instant to, Instant now, List<TimeSpan> booked) {
    }

    @Property(tries = 400, edgeCases = EdgeCasesMode.NONE)
    void everySlotLastsItsLengthLiesInsideTheHoursAndOverlapsNothing(@ForAll("cases") Case c) {
        WeeklySchedule schedule = c.schedule();
        List<TimeSpan> slots = schedule.slots(c.from(), c.to(), c.now(), c.booked());
        Duration length = Duration.ofMinutes(schedule.slotMinutes());
        TimeSpan previous = null;
        for (TimeSpan slot : slots) {
            assertEquals(length, Duration.between(slot.startTime(), slot.endTime()), slot + " lasts its length");
            assertFalse(slot.startTime().isBefore(c.now()), slot + " is not in the past");
            assertFalse(slot.startTime().isBefore(c.from()), slot + " starts in the range");
            assertTrue(slot.startTime().isBefore(c.to()), slot + " starts in the range");
            assertTrue(c.booked().stream().noneMatch(slot::overlaps), slot + " overlaps no booked span");
            assertInsideTheHours(schedule, slot);
            if (previous != null) {
                assertFalse(slot.startTime().isBefore(previous.endTime()), previous + " then " + slot + ": sorted, apart");
            }
            previous = slot;
        }
    }

    @Property(tries = 200, edgeCases = EdgeCasesMode.NONE)
    void onADayWithoutATransitionEveryGridSlotIsThere(@ForAll("cases") Case c) {
        WeeklySchedule schedule = c.schedule();
        ZoneId zone = schedule.zone();
        ZoneRules rules = zone.getRules();
        List<TimeSpan> slots = schedule.slots(c.from(), c.to(), c.now(), c.booked());
        Instant earliest = c.from().isAfter(c.now()) ? c.from() : c.now();
        for (LocalDate date = LocalDate.ofInstant(c.from(), zone); !date.isAfter(LocalDate.ofInstant(c.to(), zone));
             date = date.plusDays(1)) {
            Instant before = date.minusDays(1).atStartOfDay(zone).toInstant();
            ZoneOffsetTransition next = rules.nextTransition(before);
            if (next != null && next.getInstant().isBefore(date.plusDays(2).atStartOfDay(zone).toInstant())) {
                continue; // a transition near: the properties above cover it
            }
            for (WeeklyInterval interval : schedule.weekly()) {
                if (interval.weekday() != date.getDayOfWeek().getValue()) {
                    continue;
                }
                for (int minute = interval.startMinute(); minute + schedule.slotMinutes() <= interval.endMinute();
                     minute += schedule.slotMinutes()) {
                    Instant start = date.atStartOfDay().plusMinutes(minute).atZone(zone).toInstant();
                    TimeSpan slot = new TimeSpan(start, start.plus(Duration.ofMinutes(schedule.slotMinutes())));
                    boolean wanted = !start.isBefore(earliest) && start.isBefore(c.to()) && c.booked().stream().noneMatch(slot::overlaps);
                    assertEquals(wanted, slots.contains(slot), slot + " of " + interval + " on " + date);
                }
            }
        }
    }

    /**
     * The slot starts on its interval's grid at a wall-clock time that exists, taken at its earlier
     * offset, and ends by the interval's end: that wall-clock time at its earlier offset, or when the
     * clock jumps past it. Written from the zone's rules, not from the class's own helpers.
     */
    private static void assertInsideTheHours(WeeklySchedule schedule, TimeSpan slot) {
        ZoneId zone = schedule.zone();
        ZoneRules rules = zone.getRules();
        LocalDateTime local = LocalDateTime.ofInstant(slot.startTime(), zone);
        List<java.time.ZoneOffset> offsets = rules.getValidOffsets(local);
        assertFalse(offsets.isEmpty(), slot + " starts at a wall-clock time that exists");
        Instant earliestReading = offsets.stream().map(local::toInstant).min(Instant::compareTo).orElseThrow();
        assertEquals(earliestReading, slot.startTime(), slot + " is taken at the earlier offset");
        int minuteOfDay = local.getHour() * 60 + local.getMinute();
        boolean inside = schedule.weekly().stream().anyMatch(interval -> {
            if (interval.weekday() != local.getDayOfWeek().getValue() || minuteOfDay < interval.startMinute()
                    || minuteOfDay >= interval.endMinute() || local.getSecond() != 0
                    || (minuteOfDay - interval.startMinute()) % schedule.slotMinutes() != 0) {
                return false;
            }
            LocalDateTime end = local.toLocalDate().atStartOfDay().plusMinutes(interval.endMinute());
            List<java.time.ZoneOffset> endOffsets = rules.getValidOffsets(end);
            Instant endsBy = endOffsets.isEmpty()
                    ? rules.getTransition(end).getInstant()
                    : endOffsets.stream().map(end::toInstant).min(Instant::compareTo).orElseThrow();
            return !slot.endTime().isAfter(endsBy);
        });
        assertTrue(inside, slot + " (" + local + " in " + zone + ") lies inside " + schedule.weekly());
    }

    /**
     * A zone and one of its transitions (both directions alternate); weekly hours, half of them on
     * the transition's weekday around its wall-clock time, so slots meet the gap or the overlap; a
     * range from up to three days before it, up to 31 days long; now mostly before the range (else
     * the transition's slots are past); and booked spans in and around the range.
     */
    @Provide
    Arbitrary<Case> cases() {
        return Combinators.combine(Arbitraries.of(ZONES), Arbitraries.integers().between(0, 7)).as(WeeklyScheduleTest::transition)
                .flatMap(anchor -> {
                    ZoneId zone = anchor.zone();
                    LocalDateTime local = LocalDateTime.ofInstant(anchor.at(), zone);
                    int weekday = local.getDayOfWeek().getValue();
                    int minute = local.getHour() * 60 + local.getMinute();
                    Arbitrary<int[]> anywhere = Combinators.combine(Arbitraries.integers().between(1, 7),
                                    minutes(0, 1439), minutes(1, 1440))
                            .as((day, start, span) -> new int[] {day, (int) (long) start, (int) Math.min(1440, start + span)});
                    Arbitrary<int[]> around = Combinators.combine(minutes(0, 240), minutes(15, 480))
                            .as((before, span) -> {
                                int start = (int) Math.max(0, minute - before);
                                return new int[] {weekday, start, (int) Math.min(1440, start + span)};
                            });
                    Arbitrary<List<int[]>> intervals = Arbitraries.oneOf(anywhere, around).list().ofMinSize(1).ofMaxSize(8);
                    return Combinators.combine(Arbitraries.of(15, 20, 30, 45, 60), intervals, minutes(-3 * 24 * 60, 60),
                                    Arbitraries.frequencyOf(Tuple.of(1, minutes(1, 24 * 60)), Tuple.of(4, minutes(24 * 60, 31L * 24 * 60))),
                                    Arbitraries.frequencyOf(Tuple.of(4, minutes(-3 * 24 * 60, 0)), Tuple.of(1, minutes(0, 10 * 24 * 60))),
                                    booked())
                            .as((length, rawIntervals, shift, span, nowShift, bookedShifts) -> {
                                Instant from = anchor.at().plus(Duration.ofMinutes(shift));
                                Instant to = from.plus(Duration.ofMinutes(span));
                                List<TimeSpan> booked = bookedShifts.stream()
                                        .map(b -> {
                                            Instant start = from.plus(Duration.ofMinutes(b[0] % (span + 240) - 120));
                                            return new TimeSpan(start, start.plus(Duration.ofMinutes(b[1])));
                                        })
                                        .toList();
                                return new Case(new WeeklySchedule(zone, apart(rawIntervals), length), from, to,
                                        from.plus(Duration.ofMinutes(nowShift)), booked);
                            });
                });
    }

    /** A zone's transition: the instant its offset changes. */
    record Anchor(ZoneId zone, Instant at) {
    }

    /** Minutes spread evenly (jqwik's default leans to the small end and the edges). */
    private static Arbitrary<Long> minutes(long min, long max) {
        return Arbitraries.longs().between(min, max).withDistribution(RandomDistribution.uniform());
    }

    private static Arbitrary<List<long[]>> booked() {
        return Combinators.combine(minutes(0, 50L * 24 * 60), minutes(5, 240))
                .as((start, minutes) -> new long[] {start, minutes}).list().ofMaxSize(6);
    }

    /** The {@code n}th of the zone's transitions from 2025 on (a fixed instant for a zone without any). */
    private static Anchor transition(String zone, int n) {
        ZoneId id = ZoneId.of(zone);
        Instant at = Instant.parse("2025-01-01T00:00:00Z");
        for (int i = 0; i <= n; i++) {
            ZoneOffsetTransition next = id.getRules().nextTransition(at);
            if (next == null) {
                return new Anchor(id, Instant.parse("2026-06-15T10:00:00Z"));
            }
            at = next.getInstant();
        }
        return new Anchor(id, at);
    }

    /** The intervals in order, each that overlaps an earlier one of its weekday left out (as the schema refuses them). */
    private static List<WeeklyInterval> apart(List<int[]> raw) {
        List<WeeklyInterval> kept = new ArrayList<>();
        for (int[] interval : raw) {
            boolean overlaps = kept.stream().anyMatch(other -> other.weekday() == interval[0]
                    && interval[1] < other.endMinute() && other.startMinute() < interval[2]);
            if (!overlaps) {
                kept.add(new WeeklyInterval(interval[0], interval[1], interval[2]));
            }
        }
        return kept;
    }
}
