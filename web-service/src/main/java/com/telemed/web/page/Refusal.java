package com.telemed.web.page;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * A 4xx a called service answered on purpose (the operation's {@code Answers}): requests-service to the patient
 * pages, the gateway's {@code /ops} API to the console. Its status, and its {@code error}: a text ({@link #error})
 * or an array of Zod-shaped issues ({@link #issues}). The pages decide what each means for their reader; the console
 * never gets a {@code 401} as one (the session is over: {@code ops.SignedOut}). Carries no stack trace and nothing of
 * the call.
 */
public final class Refusal extends RuntimeException {

    private final int status;
    private final String error;
    private final List<JsonNode> issues;

    public Refusal(int status, String error, List<JsonNode> issues) {
        super(null, null, false, false);
        this.status = status;
        this.error = error;
        this.issues = List.copyOf(issues);
    }

    public int status() {
        return status;
    }

    /** The error text ({@code {"error":"Slot no longer available"}}), or null when the answer was issues. */
    public String error() {
        return error;
    }

    /** The issues of a {@code 400} with an array, in their order; empty otherwise. */
    public List<JsonNode> issues() {
        return issues;
    }

    public boolean is(int status, String error) {
        return this.status == status && error.equals(this.error);
    }

    /** The refusal a called service's 4xx answer says: its {@code error} text or issues; the status alone when not JSON. */
    public static Refusal of(jakarta.ws.rs.WebApplicationException answered) {
        int status = answered.getResponse().getStatus();
        JsonNode error = null;
        try {
            JsonNode body = answered.getResponse().readEntity(JsonNode.class);
            error = body == null ? null : body.get("error");
        } catch (RuntimeException unreadable) {
            // Not JSON: the status alone decides.
        }
        List<JsonNode> issues = new java.util.ArrayList<>();
        if (error != null && error.isArray()) {
            error.forEach(issues::add);
        }
        return new Refusal(status, error != null && error.isTextual() ? error.textValue() : null, issues);
    }
}
