package com.telemed.messaging.message;

import static com.telemed.common.validation.Schemas.enumOf;
import static com.telemed.common.validation.Schemas.object;
import static com.telemed.common.validation.Schemas.string;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.common.error.ApiException;
import com.telemed.common.validation.Binding;
import com.telemed.common.validation.Issues;
import com.telemed.common.validation.ObjectSchema;
import com.telemed.common.validation.ValidationException;

/** The bodies and queries of the message endpoints, and their bounds (partner-api.md, Limits). */
public final class MessageSchemas {

    /** Message text: 1 to 5000 characters (UTF-16 units, as the contract's JavaScript counts them). */
    static final int MAX_TEXT = 5000;
    /** Handoff {@code note}: up to 500 characters. */
    static final int MAX_NOTE = 500;
    static final int DEFAULT_LIMIT = 50;
    static final int MAX_LIMIT = 100;

    static final String TEXT_REQUIRED = "Message text is required";
    static final String TEXT_TOO_LONG = "Message too long";
    static final String LIMIT_OUT_OF_RANGE = "limit must be an integer between 1 and 100";

    /** The patient's text: its errors are the two strings of the contract, not issues. */
    static final ObjectSchema PATIENT_TEXT = object()
            .field("text", string().refine(text -> !text.asText().isEmpty(), TEXT_REQUIRED)
                    .refine(text -> text.asText().length() <= MAX_TEXT, TEXT_TOO_LONG));

    /** The operator's prescriber message: issue arrays (operations-api.md, Conventions); {@code subject} goes with {@code html}. */
    static final ObjectSchema PRESCRIBER_MESSAGE = object()
            .field("text", string().min(1).max(MAX_TEXT))
            .field("html", string().min(1).optional())
            .field("subject", string().min(1).max(998).optional())
            .rule((body, path, issues) -> {
                if (body.hasNonNull("html") && !body.hasNonNull("subject")) {
                    issues.custom(Issues.append(path, "subject"), "subject is required with html");
                }
            });

    static final ObjectSchema HANDOFF = object()
            .field("category", enumOf("billing", "orders", "account", "technical", "other"))
            .field("note", string().max(MAX_NOTE).optional());

    private MessageSchemas() {
    }

    /** {@code 400 Message text is required} (missing, empty or not a string) or {@code 400 Message too long}. */
    static MessageInput.PatientText patientText(JsonNode body) {
        try {
            return Binding.bind(PATIENT_TEXT, body, MessageInput.PatientText.class);
        } catch (ValidationException invalid) {
            throw ApiException.badRequest(TEXT_TOO_LONG.equals(invalid.issues().get(0).message()) ? TEXT_TOO_LONG : TEXT_REQUIRED);
        }
    }

    /** The {@code limit} query parameter: absent 50; otherwise an integer from 1 to 100, else {@code 400} with the bounds. */
    static int limit(String limit) {
        if (limit == null) {
            return DEFAULT_LIMIT;
        }
        try {
            int value = Integer.parseInt(limit.trim());
            if (value >= 1 && value <= MAX_LIMIT) {
                return value;
            }
        } catch (NumberFormatException notAnInteger) {
            // answered below
        }
        throw ApiException.badRequest(LIMIT_OUT_OF_RANGE);
    }
}
