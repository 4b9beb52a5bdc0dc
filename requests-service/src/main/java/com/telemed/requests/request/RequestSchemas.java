package com.telemed.requests.request;

import static com.telemed.common.validation.Schemas.array;
import static com.telemed.common.validation.Schemas.bool;
import static com.telemed.common.validation.Schemas.enumOf;
import static com.telemed.common.validation.Schemas.number;
import static com.telemed.common.validation.Schemas.object;
import static com.telemed.common.validation.Schemas.string;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.telemed.common.validation.Binding;
import com.telemed.common.validation.Issues;
import com.telemed.common.validation.NumberSchema;
import com.telemed.common.validation.ObjectSchema;
import com.telemed.common.validation.StorableText;
import com.telemed.common.validation.StringSchema;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/** The Zod-style schemas of the request endpoints (partner-api.md, Requests). */
public final class RequestSchemas {

    /*
     * Bounds (README, "Input bounds"): every string and number a body can carry fits its column,
     * its index entry and the arithmetic done on it.
     */
    /** The unique index (partner_id, idempotency_key): 255 characters are at most 765 bytes of UTF-8. */
    public static final int IDEMPOTENCY_KEY_MAX = 255;
    /**
     * What a body can carry: the gateway refuses a JSON body over 100 KB (decisions.md), and the seed
     * bounds {@code caseNotes} by nothing else (a pasted questionnaire is long); {@code text} holds it.
     */
    public static final int CASE_NOTES_MAX = 102_400;
    public static final int ID_MAX = 255;
    public static final int SKU_ID_MAX = 128;
    public static final int LABEL_MAX = 255;
    public static final int FREE_TEXT_MAX = 500;
    public static final int UNIT_MAX = 50;
    public static final int REASON_MAX = 1_000;
    /** A dose or quantity: at most a million units, to the millionth (numeric columns, jsonb, volumeMl). */
    public static final int AMOUNT_MAX = 1_000_000;
    public static final int AMOUNT_DECIMALS = 6;
    /** The inline member: as members-service bounds it (members-service README). */
    static final int NAME_MAX = 100;
    static final int EMAIL_MAX = 254;
    static final int PHONE_MAX = 50;
    static final int ADDRESS_LINE_MAX = 200;

    private static final Pattern DATE = Pattern.compile("\\d{4}-\\d{2}-\\d{2}");
    private static final Pattern ZIP = Pattern.compile("\\d{5}(-\\d{4})?");

    static final String MEMBER_REQUIRED = "Either memberId or member is required";
    static final String MEMBER_TWICE = "Send either memberId or member, not both";
    static final String NOTES_REQUIRED = "Either caseNotes or v2SurveyResponseId is required";
    static final String SEND_AT_PAST = "pharmacySendAt must be in the future";
    /** {@code simulation} on a create outside a sandbox deployment (partner-extensions.md, "Sandbox simulation"). */
    public static final String SIMULATION_SANDBOX_ONLY = "simulation is only accepted in sandbox";
    /** The autopilot's outcomes, and the latest start it may be given (an hour). */
    public static final List<String> SIMULATION_OUTCOMES = List.of("approve", "deny", "consultation");
    public static final int SIMULATION_AFTER_MAX = 3_600;

    /** The fields of one item; also the legacy single-drug body's top-level fields. */
    private static ObjectSchema item() {
        return object()
                .field("drugId", string().min(1).max(128))
                .field("requestedSkuId", string().max(SKU_ID_MAX).optional())
                .field("dosage", string().max(LABEL_MAX).optional())
                .field("requestedSku", string().max(FREE_TEXT_MAX).optional())
                .field("requestedClinicalDose", dose().optional());
    }

    /**
     * The sandbox autopilot: {@code { outcome, afterSeconds?, ship? }} ({@code afterSeconds} 0 when
     * absent, {@code ship} false). Outside sandbox the field is refused whatever it holds
     * ({@link #createInput}).
     */
    private static ObjectSchema simulation() {
        return object()
                .field("outcome", enumOf(SIMULATION_OUTCOMES.toArray(String[]::new)))
                .field("afterSeconds", number().integer().min(0).max(SIMULATION_AFTER_MAX).optional())
                .field("ship", bool().optional());
    }

    /** {@code { value: number, unit: string }}: a stored numeric that never explodes arithmetic. */
    private static ObjectSchema dose() {
        return object()
                .field("value", amount())
                .field("unit", string().max(UNIT_MAX));
    }

    /** A dose or quantity: 0 to 1,000,000, at most six decimals. */
    public static NumberSchema amount() {
        return number().min(0).max(AMOUNT_MAX).decimals(AMOUNT_DECIMALS);
    }

    /**
     * The inline member: the {@code POST /v1/members} shape (members-service checks it again and
     * owns the rules); checked here too so that every issue of the body comes in one answer.
     */
    private static ObjectSchema inlineMember() {
        return object()
                .field("firstName", string().min(1).max(NAME_MAX).singleLine())
                .field("lastName", string().min(1).max(NAME_MAX).singleLine())
                .field("email", string().email().max(EMAIL_MAX))
                .field("phone", string().max(PHONE_MAX).optional().nullable())
                .field("dateOfBirth", string().regex(DATE, "Invalid"))
                .field("state", string().length(2))
                .field("gender", enumOf("m", "f", "a", "u").optional())
                .field("address", address())
                .field("shippingAddress", address().optional().nullable());
    }

    private static ObjectSchema address() {
        return object()
                .field("street1", string().min(1).max(ADDRESS_LINE_MAX))
                .field("street2", string().max(ADDRESS_LINE_MAX).optional().nullable())
                .field("city", string().min(1).max(ADDRESS_LINE_MAX))
                .field("state", string().length(2))
                .field("zipCode", string().regex(ZIP, "Invalid"));
    }

    /** {@code POST /v1/requests}; {@code now} decides whether {@code pharmacySendAt} is in the future. */
    public static ObjectSchema create(Supplier<Instant> now) {
        ObjectSchema schema = object()
                .field("memberId", string().min(1).optional())
                .field("member", inlineMember().optional())
                .field("items", array(item()).max(1).optional())
                .field("caseNotes", string().min(1).max(CASE_NOTES_MAX).optional())
                .field("v2SurveyResponseId", string().min(1).max(ID_MAX).optional())
                .field("pharmacySendAt", string().datetimeWithOffset().optional())
                .field("idempotencyKey", string().min(1).max(IDEMPOTENCY_KEY_MAX).optional())
                .field("simulation", simulation().optional());
        // The legacy single-drug body: the item's fields at top level.
        schema.field("drugId", string().min(1).max(128).optional())
                .field("requestedSkuId", string().max(SKU_ID_MAX).optional())
                .field("dosage", string().max(LABEL_MAX).optional())
                .field("requestedSku", string().max(FREE_TEXT_MAX).optional())
                .field("requestedClinicalDose", dose().optional());
        return schema
                .rule((body, path, issues) -> {
                    boolean byId = body.has("memberId");
                    boolean inline = body.has("member");
                    if (!byId && !inline) {
                        issues.custom(Issues.append(path, "memberId"), MEMBER_REQUIRED);
                    } else if (byId && inline) {
                        issues.custom(Issues.append(path, "member"), MEMBER_TWICE);
                    }
                })
                .rule((body, path, issues) -> {
                    if (!body.has("caseNotes") && !body.has("v2SurveyResponseId")) {
                        issues.custom(Issues.append(path, "caseNotes"), NOTES_REQUIRED);
                    }
                })
                .rule((body, path, issues) -> {
                    // Rules also run beside failed checks (Zod's superRefine on a dirty object): a
                    // malformed value already has its invalid_string issue.
                    JsonNode sendAt = body.get("pharmacySendAt");
                    if (sendAt != null && sendAt.isTextual() && StringSchema.FOUR_DIGIT_YEAR.matcher(sendAt.textValue()).lookingAt()) {
                        try {
                            if (!OffsetDateTime.parse(sendAt.textValue()).toInstant().isAfter(now.get())) {
                                issues.custom(Issues.append(path, "pharmacySendAt"), SEND_AT_PAST);
                            }
                        } catch (DateTimeParseException malformed) {
                            // reported by the field's own check
                        }
                    }
                });
    }

    /** {@code GET /v1/requests} query, numbers coerced from strings. */
    public static final ObjectSchema LIST_QUERY = object()
            .field("startDate", string().refine(RequestSchemas::dateOrDateTime, "Invalid date").optional())
            .field("endDate", string().refine(RequestSchemas::dateOrDateTime, "Invalid date").optional())
            .field("status", enumOf(ItemStatus.FILTERABLE.toArray(String[]::new)).optional())
            .field("page", number().coerce().integer().min(1).optional())
            .field("limit", number().coerce().integer().min(1).max(100).optional());

    /** The {@code Idempotency-Key} header, when not blank; its issues carry the path {@code ["Idempotency-Key"]}. */
    public static final StringSchema IDEMPOTENCY_HEADER = string().max(IDEMPOTENCY_KEY_MAX);
    static final String IDEMPOTENCY_HEADER_NAME = "Idempotency-Key";

    /** {@link #createInput(JsonNode, String, Supplier, boolean)} outside a sandbox deployment. */
    public static RequestInput createInput(JsonNode body, String headerKey, Supplier<Instant> now) {
        return createInput(body, headerKey, now, false);
    }

    /**
     * {@code POST /v1/requests} read: the body's issues and the {@code Idempotency-Key} header's
     * (path {@code ["Idempotency-Key"]}, first), all in one answer, then the body bound. A blank
     * header is no key: the body's {@code idempotencyKey} counts. An absent body reads as {@code {}}.
     * Outside {@code sandbox}, a {@code simulation} (whatever it holds) is one {@code custom} issue at
     * {@code ["simulation"]}, after the body's others.
     */
    public static RequestInput createInput(JsonNode body, String headerKey, Supplier<Instant> now, boolean sandbox) {
        JsonNode input = body == null ? JsonNodeFactory.instance.objectNode() : body;
        Issues issues = new Issues();
        if (headerKey != null && !headerKey.isBlank()) {
            List<Object> path = List.of(IDEMPOTENCY_HEADER_NAME);
            IDEMPOTENCY_HEADER.validate(TextNode.valueOf(headerKey), path, issues);
            if (!StorableText.storable(headerKey)) {
                issues.custom(path, StorableText.INVALID_CHARACTER);
            }
        }
        if (sandbox || !input.has("simulation")) {
            create(now).validate(input, List.of(), issues);
        } else {
            // Refused whatever it holds: the body's other fields are checked without it.
            ObjectNode others = ((ObjectNode) input).deepCopy();
            others.remove("simulation");
            create(now).validate(others, List.of(), issues);
            issues.custom(List.of("simulation"), SIMULATION_SANDBOX_ONLY);
        }
        issues.throwIfAny();
        return Binding.bindValidated(input, RequestInput.class);
    }

    /** {@code POST /v1/requests/:id/cancel}, body optional. A request has at most one item. */
    public static final ObjectSchema CANCEL = object()
            .field("reason", string().max(REASON_MAX).optional())
            .field("itemIds", array(string().max(ID_MAX)).max(100).optional());

    private RequestSchemas() {
    }

    /** {@code YYYY-MM-DD} or a full ISO 8601 date-time (with or without offset). */
    static boolean dateOrDateTime(JsonNode value) {
        String text = value.textValue();
        if (!StringSchema.FOUR_DIGIT_YEAR.matcher(text).lookingAt()) {
            // Java would read +999999999-12-31; no timestamp column (nor the day after it) holds that.
            return false;
        }
        try {
            if (DATE.matcher(text).matches()) {
                LocalDate.parse(text);
                return true;
            }
            DateBounds.instant(text);
            return true;
        } catch (DateTimeParseException e) {
            return false;
        }
    }
}
