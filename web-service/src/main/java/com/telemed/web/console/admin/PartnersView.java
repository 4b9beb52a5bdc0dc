package com.telemed.web.console.admin;

/**
 * The partners page ({@code console-partners.html}): the create form (what was typed and the gateway's
 * issue after a refusal) and the find form.
 *
 * @param error the refusal about no field, or null
 */
public record PartnersView(String name, String nameError, String error, String csrf) {
}
