package com.telemed.requests.fulfilment;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;

/**
 * The answer of {@code send-to-pharmacy} (partner-api.md): {@code 200 {success, method, warnings,
 * error?}}. {@code error} is present exactly when {@code success} is false, and then
 * {@code warnings} holds the same failure reason.
 */
@JsonPropertyOrder({"success", "method", "warnings", "error"})
public record SendOutcome(boolean success, String method, List<String> warnings,
                          @JsonInclude(JsonInclude.Include.NON_NULL) String error) {

    static SendOutcome sent(String method, List<String> warnings) {
        return new SendOutcome(true, method, List.copyOf(warnings), null);
    }

    static SendOutcome refused(String method, Refusal refusal) {
        return new SendOutcome(false, method, List.of(refusal.text()), refusal.text());
    }
}
