package com.telemed.web.ops;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * A 4xx the gateway's {@code /ops} API answered on purpose: its status and its {@code error}, a text
 * ({@link #error}) or Zod-shaped issues ({@link #issues}). {@code 401} never comes back as one (the
 * session is over: {@link SignedOut}). Carries no stack trace and nothing of the call.
 */
public final class OpsRefusal extends RuntimeException {

    private final int status;
    private final String error;
    private final List<JsonNode> issues;

    OpsRefusal(int status, String error, List<JsonNode> issues) {
        super(null, null, false, false);
        this.status = status;
        this.error = error;
        this.issues = List.copyOf(issues);
    }

    public int status() {
        return status;
    }

    /** The error text ({@code {"error":"Request not found"}}), or null when the answer was issues. */
    public String error() {
        return error;
    }

    /** The issues of a {@code 400} with an array, in their order; empty otherwise. */
    public List<JsonNode> issues() {
        return issues;
    }
}
