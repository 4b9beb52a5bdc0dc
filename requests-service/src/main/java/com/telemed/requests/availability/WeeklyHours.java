package com.telemed.requests.availability;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.util.List;
import java.util.UUID;

/** One interval of a prescriber's weekly hours (table {@code prescriber_weekly_hours}). */
@Entity
@Table(name = "prescriber_weekly_hours")
public class WeeklyHours extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    @Column(name = "id", nullable = false, updatable = false)
    public Long id;

    @Column(name = "prescriber_id", nullable = false, updatable = false)
    public UUID prescriberId;

    @Column(name = "weekday", nullable = false, updatable = false)
    public int weekday;

    @Column(name = "start_minute", nullable = false, updatable = false)
    public int startMinute;

    @Column(name = "end_minute", nullable = false, updatable = false)
    public int endMinute;

    /** The prescriber's intervals, by weekday and start. */
    static List<WeeklyInterval> of(UUID prescriberId) {
        return WeeklyHours.<WeeklyHours>list("prescriberId = ?1 order by weekday, startMinute", prescriberId).stream()
                .map(hours -> new WeeklyInterval(hours.weekday, hours.startMinute, hours.endMinute))
                .toList();
    }

    /** Replaces the prescriber's intervals by these. */
    static void replace(UUID prescriberId, List<WeeklyInterval> intervals) {
        delete("prescriberId", prescriberId);
        for (WeeklyInterval interval : intervals) {
            WeeklyHours hours = new WeeklyHours();
            hours.prescriberId = prescriberId;
            hours.weekday = interval.weekday();
            hours.startMinute = interval.startMinute();
            hours.endMinute = interval.endMinute();
            hours.persist();
        }
    }
}
