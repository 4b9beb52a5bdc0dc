package com.telemed.web.console.admin;

import java.util.List;
import java.util.Map;

/**
 * The accounts page ({@code console-accounts.html}): every live account with its delete form, and the
 * create form with what was typed (never the password) and the gateway's issues next to their fields.
 *
 * @param notice what was just done ({@code Account created}, {@code Account deleted}), or null
 * @param error a refusal about no field, or null
 */
public record AccountsView(List<Row> rows, String notice, String error, Map<String, String> typed, List<String> roles,
                           Map<String, String> errors, String csrf) {

    /** The create form's roles, in page order. */
    public static final List<String> ROLES = List.of("admin", "prescriber", "support");

    public record Row(String id, String email, String name, String roles, String prescriberId, String deleteAction) {
    }

    /** A field of the create form: its value as typed, its issue or null. */
    public record Field(String name, String label, String type, String value, String error, String autocomplete) {

        public String errorId() {
            return "error-" + name;
        }
    }

    public record Role(String value, boolean checked) {

        public String id() {
            return "roles-" + value;
        }
    }

    public List<Field> fields() {
        return List.of(field("email", "Email", "email", "off"), field("name", "Name", "text", "off"),
                field("prescriberId", "Prescriber id", "text", "off"));
    }

    public Field password() {
        return new Field("password", "Password", "password", "", errors.get("password"), "new-password");
    }

    public List<Role> roleChoices() {
        return ROLES.stream().map(role -> new Role(role, roles.contains(role))).toList();
    }

    public String rolesError() {
        return errors.get("roles");
    }

    public boolean failed() {
        return error != null || !errors.isEmpty();
    }

    private Field field(String name, String label, String type, String autocomplete) {
        return new Field(name, label, type, typed.getOrDefault(name, ""), errors.get(name), autocomplete);
    }
}
