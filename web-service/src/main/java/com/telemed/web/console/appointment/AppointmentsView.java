package com.telemed.web.console.appointment;

import java.util.List;

/**
 * The appointments page ({@code console-appointments.html}): the prescriber's upcoming appointments in
 * their own zone, by start time as requests-service orders them, and the outcome forms of the booked ones.
 *
 * @param zone   the zone the times are shown in (the prescriber's availability's, {@code UTC} without one)
 * @param notice what the last outcome did ({@code Marked held}, {@code Marked no-show}), or null
 * @param error  the gateway's refusal of the last outcome ({@code Appointment is cancelled, not booked}), or null
 */
public record AppointmentsView(String zone, String notice, String error, List<Row> rows, String csrf) {

    /**
     * One appointment: {@code when} its local start ({@code yyyy-MM-dd HH:mm}) to its local end
     * ({@code HH:mm}); {@code booked} whether it takes an outcome.
     */
    public record Row(String id, String when, String zone, String patient, String status, boolean booked) {

        public String outcomeAction() {
            return "/console/appointments/" + id + "/outcome";
        }
    }
}
