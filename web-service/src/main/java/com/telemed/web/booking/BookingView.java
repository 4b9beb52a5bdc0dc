package com.telemed.web.booking;

import java.util.List;

/**
 * What the booking page shows ({@code booking.html}).
 *
 * @param state {@code open} (slots to book), {@code booked} (the appointment, reschedule and cancel),
 *              {@code started}, {@code over} (held or missed), {@code cancelled}, {@code closed} (the
 *              consultation closed before anything was booked)
 * @param prescriberName the consulting prescriber's name as requests-service gives it (never an email); may be null
 * @param path the page's own path, {@code /book/<token>}: the zone form's action, and the base of the others
 * @param tz the zone every time is shown in
 * @param appointment the link's appointment in {@code tz}, or null
 * @param days the slots left, by local day in {@code tz} (open and booked only)
 * @param error why the last choice failed (a slot taken meanwhile ...), or null
 * @param detectZone whether the page's script may show it again in the browser's zone: a first visit
 *                   (a {@code GET} without {@code tz}), never a page answering a form
 */
public record BookingView(String state, String title, String prescriberName, String path, String tz,
                          List<TimeZones.ZoneOption> zones, AppointmentTimes appointment, List<SlotDays.SlotDay> days,
                          String error, boolean detectZone) {

    BookingView detectingZone(boolean detect) {
        return new BookingView(state, title, prescriberName, path, tz, zones, appointment, days, error, detect);
    }

    public boolean open() {
        return "open".equals(state);
    }

    public boolean booked() {
        return "booked".equals(state);
    }

    /** The zone select and the slots: while there is something to choose. */
    public boolean choosing() {
        return open() || booked();
    }

    public String tzLabel() {
        return TimeZones.label(tz);
    }

    public String slotAction() {
        return booked() ? path + "/reschedule" : path;
    }

    public String cancelAction() {
        return path + "/cancel";
    }

    public String slotLegend() {
        return booked() ? "Choose a new time" : "Choose a time";
    }

    public String slotButton() {
        return booked() ? "Move my appointment to this time" : "Book this time";
    }

    /** Where the error summary's link goes: the first slot, or the slots' legend when none is left. */
    public String errorTarget() {
        return days.isEmpty() || days.get(0).slots().isEmpty() ? "slots" : days.get(0).slots().get(0).id();
    }

    /** The appointment's day and local times in {@code zone} ({@code tz}). */
    public record AppointmentTimes(String day, String times, String zone) {
    }
}
