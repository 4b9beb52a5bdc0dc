package com.telemed.requests.appointment;

import static com.telemed.common.validation.Schemas.enumOf;
import static com.telemed.common.validation.Schemas.number;
import static com.telemed.common.validation.Schemas.object;
import static com.telemed.common.validation.Schemas.string;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.telemed.common.validation.Binding;
import com.telemed.common.validation.Issues;
import com.telemed.common.validation.NumberSchema;
import com.telemed.common.validation.ObjectSchema;
import com.telemed.common.validation.StringSchema;
import com.telemed.requests.availability.AvailabilitySchemas;
import com.telemed.requests.request.RequestSchemas;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.function.Supplier;

/** Bodies of the booking side's calls (operations-api.md, "Consultations"), Zod issues all at once. */
final class AppointmentSchemas {

    static final int DURATION_MIN = 5;
    static final int DURATION_MAX = 480;
    static final String START_PAST = "startTime must be in the future";

    /** {@code GET /ops/v1/appointments}: {@code limit} 1 to 200, 100 when not sent; {@code to} at most 62 days after {@code from}. */
    static final int LIST_LIMIT_DEFAULT = 100;
    static final int LIST_LIMIT_MAX = 200;
    static final Duration LIST_RANGE_DEFAULT = Duration.ofDays(31);
    static final Duration LIST_RANGE_MAX = Duration.ofDays(62);
    static final int PRESCRIBER_ID_MAX = 100;
    static final String TO_NOT_AFTER_FROM = "to must be after from";
    static final String LIST_RANGE_TOO_LONG = "The range may span at most 62 days";

    /** The list's query as validated: the prescriber as sent (null: not sent), the range and the page size. */
    record ListQuery(String prescriberId, Instant from, Instant to, int limit) {
    }

    private AppointmentSchemas() {
    }

    /** {@code POST /ops/v1/bookings/:token/appointment}: {@code {startTime, durationMinutes, timezone}}. */
    static ObjectSchema book(Supplier<Instant> now) {
        return startInFuture(object()
                .field("startTime", string().datetimeWithOffset())
                .field("durationMinutes", duration())
                .field("timezone", timezone()), now);
    }

    /**
     * A booking made by the service rather than sent (the sandbox patient's, {@link Appointments#bookOnLink}): checked
     * by {@link #book} as the booking page's body is, the same issues if it is not one the page could send.
     */
    static BookInput checkedBooking(BookInput booking, Supplier<Instant> now) {
        ObjectNode body = JsonNodeFactory.instance.objectNode()
                .put("startTime", booking.startTime())
                .put("durationMinutes", booking.durationMinutes())
                .put("timezone", booking.timezone());
        return Binding.bind(book(now), body, BookInput.class);
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

    /**
     * The {@code ?prescriberId=&from=&to=&limit=} of {@code GET /ops/v1/appointments}, strings as sent
     * (an empty {@code from}, {@code to} or {@code prescriberId} counts as absent, as the slots' range):
     * Zod's issues all at once. {@code prescriberId} a string of 1 to 100 characters, required unless the
     * caller is a prescriber in person ({@code prescriberRequired} false); {@code from} and {@code to}
     * datetimes with {@code Z} or an offset, {@code from} now and {@code to} 31 days after {@code from}
     * when not sent, {@code to} after {@code from} and at most 62 days on; {@code limit} an integer 1 to 200.
     */
    static ListQuery listQuery(String prescriberId, String from, String to, String limit, boolean prescriberRequired,
                               Instant now) {
        ObjectNode query = JsonNodeFactory.instance.objectNode();
        putPresent(query, "prescriberId", prescriberId);
        putPresent(query, "from", from);
        putPresent(query, "to", to);
        if (limit != null) {
            query.put("limit", limit);
        }
        StringSchema prescriber = string().min(1).max(PRESCRIBER_ID_MAX);
        object()
                .field("prescriberId", prescriberRequired ? prescriber : prescriber.optional())
                .field("from", string().datetimeWithOffset().optional())
                .field("to", string().datetimeWithOffset().optional())
                .field("limit", number().coerce().integer().min(1).max(LIST_LIMIT_MAX).optional())
                .rule((sent, path, issues) -> {
                    Optional<Instant> start = sent.has("from") ? instant(sent.get("from")) : Optional.of(now);
                    Optional<Instant> end = instant(sent.get("to"));
                    if (start.isPresent() && end.isPresent()) {
                        if (!end.get().isAfter(start.get())) {
                            issues.custom(Issues.append(path, "to"), TO_NOT_AFTER_FROM);
                        } else if (Duration.between(start.get(), end.get()).compareTo(LIST_RANGE_MAX) > 0) {
                            issues.custom(Issues.append(path, "to"), LIST_RANGE_TOO_LONG);
                        }
                    }
                })
                .validate(query);
        Instant start = query.has("from") ? OffsetDateTime.parse(from).toInstant() : now;
        Instant end = query.has("to") ? OffsetDateTime.parse(to).toInstant() : start.plus(LIST_RANGE_DEFAULT);
        return new ListQuery(query.has("prescriberId") ? prescriberId : null, start, end,
                limit == null ? LIST_LIMIT_DEFAULT : NumberSchema.read(query.get("limit")).intValueExact());
    }

    private static void putPresent(ObjectNode query, String name, String value) {
        if (value != null && !value.isEmpty()) {
            query.put(name, value);
        }
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
