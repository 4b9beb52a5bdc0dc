package com.telemed.requests.appointment;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;

/** Appointments (operations-api.md, "Consultations"): reminder offsets and the reminder job's pace. */
@ConfigMapping(prefix = "requests.appointments")
public interface AppointmentConfig {

    /** An {@code appointment.reminder} fires this long before the start, once per offset ({@code APPOINTMENT_REMINDER_OFFSETS}). */
    @WithDefault("24h")
    List<Duration> reminderOffsets();

    /** How often each replica looks for due reminders. */
    @WithDefault("5s")
    Duration reminderPollInterval();

    /** Reminders one replica sends in one transaction. */
    @WithDefault("100")
    int reminderBatchSize();
}
