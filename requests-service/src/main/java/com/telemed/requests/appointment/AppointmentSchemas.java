package com.telemed.requests.appointment;

import static com.telemed.common.validation.Schemas.enumOf;
import static com.telemed.common.validation.Schemas.number;
import static com.telemed.common.validation.Schemas.object;
import static com.telemed.common.validation.Schemas.string;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.common.validation.Issues;
import com.telemed.common.validation.ObjectSchema;
import com.telemed.common.validation.StringSchema;
import com.telemed.requests.availability.AvailabilitySchemas;
import com.telemed.requests.request.RequestSchemas;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.function.Supplier;

/** Bodies of the booking side's calls (operations-api.md, "Consultations"), Zod issues all at once. */
final class AppointmentSchemas {

    static final int DURATION_MIN = 5;
    static final int DURATION_MAX = 480;
    static final String START_PAST = "startTime must be in the future";

    private AppointmentSchemas() {
    }

    /** {@code POST /ops/v1/bookings/:token/appointment}: {@code {startTime, durationMinutes, timezone}}. */
    static ObjectSchema book(Supplier<Instant> now) {
        return startInFuture(object()
                .field("startTime", string().datetimeWithOffset())
                .field("durationMinutes", duration())
                .field("timezone", timezone()), now);
    }

    /** {@code POST /ops/v1/appointments/:id/reschedule}: {@code {startTime, durationMinutes?, timezone?}}. */
    static ObjectSchema reschedule(Supplier<Instant> now) {
        return startInFuture(object()
                .field("startTime", string().datetimeWithOffset())
                .field("durationMinutes", duration().optional())
                .field("timezone", timezone().optional()), now);
    }

    /** {@code POST /ops/v1/bookings/:token/appointment/reschedule}: {@code {startTime, timezone?}}. */
    static ObjectSchema linkReschedule(Supplier<Instant> now) {
        return startInFuture(object()
                .field("startTime", string().datetimeWithOffset())
                .field("timezone", timezone().optional()), now);
    }

    /** {@code POST /ops/v1/bookings/:token/appointment/cancel}: {@code {reason?}}; the patient cancels. */
    static final ObjectSchema LINK_CANCEL = object()
            .field("reason", string().min(1).max(RequestSchemas.REASON_MAX).optional());

    static final ObjectSchema CANCEL = object()
            .field("cancelledBy", enumOf("patient", "prescriber"))
            .field("reason", string().min(1).max(RequestSchemas.REASON_MAX).optional());

    static final ObjectSchema OUTCOME = object().field("outcome", enumOf("held", "no_show"));

    private static com.telemed.common.validation.NumberSchema duration() {
        return number().integer().min(DURATION_MIN).max(DURATION_MAX);
    }

    /** An IANA zone id the JDK has rules for ({@code Europe/Paris}), as a prescriber's hours name theirs. */
    private static StringSchema timezone() {
        return AvailabilitySchemas.timezone();
    }

    private static ObjectSchema startInFuture(ObjectSchema schema, Supplier<Instant> now) {
        return schema.rule((body, path, issues) -> {
            JsonNode start = body.get("startTime");
            if (start != null && start.isTextual() && StringSchema.FOUR_DIGIT_YEAR.matcher(start.textValue()).lookingAt()) {
                try {
                    if (!OffsetDateTime.parse(start.textValue()).toInstant().isAfter(now.get())) {
                        issues.custom(Issues.append(path, "startTime"), START_PAST);
                    }
                } catch (DateTimeParseException malformed) {
                    // reported by the field's own check
                }
            }
        });
    }
}
