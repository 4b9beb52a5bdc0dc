package com.telemed.web.console.admin;

import java.util.Map;

/**
 * The prescribers page ({@code console-prescribers.html}): the create form (what was typed and the gateway's
 * issues next to their fields after a refusal) and the find form.
 *
 * @param error a refusal about no field, or null
 */
public record PrescribersView(String name, String email, Map<String, String> errors, String error, String csrf) {

    public String nameError() {
        return errors.get("name");
    }

    public String emailError() {
        return errors.get("email");
    }

    public boolean failed() {
        return error != null || !errors.isEmpty();
    }
}
