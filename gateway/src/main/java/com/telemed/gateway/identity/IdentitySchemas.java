package com.telemed.gateway.identity;

import static com.telemed.common.validation.Schemas.array;
import static com.telemed.common.validation.Schemas.enumOf;
import static com.telemed.common.validation.Schemas.object;
import static com.telemed.common.validation.Schemas.string;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.common.validation.Issues;
import com.telemed.common.validation.ObjectSchema;
import java.util.List;

/**
 * The bodies of the identity endpoints (people-and-pages.md, "Credentials on /ops") and their
 * bounds, checked as every {@code /ops} body is (Zod-style issues, all at once).
 */
public final class IdentitySchemas {

    /** RFC 5321's longest address: fits the unique index on {@code lower(email)}. */
    static final int EMAIL_MAX = 254;
    static final int NAME_MAX = 200;
    /** The contract's minimum. */
    static final int PASSWORD_MIN = 12;
    /** Bounds the Argon2id input a caller can make the gateway hash. */
    static final int PASSWORD_MAX = 256;
    /** A person's roles; {@code pharmacy} is a pharmacy credential's ({@code phk_}), never a person's. */
    static final List<String> ACCOUNT_ROLES = List.of("admin", "prescriber", "support");
    static final String PRESCRIBER_REQUIRED = "prescriberId is required for a prescriber account";
    static final String PRESCRIBER_NOT_ALLOWED = "prescriberId is only for a prescriber account";

    /** {@code POST /ops/v1/accounts}, bound to {@link NewAccount}. */
    static final ObjectSchema NEW_ACCOUNT = object()
            .field("email", string().email().max(EMAIL_MAX))
            .field("name", string().min(1).max(NAME_MAX).singleLine())
            .field("roles", array(enumOf(ACCOUNT_ROLES.toArray(String[]::new))).min(1).max(ACCOUNT_ROLES.size()))
            .field("prescriberId", string().max(128).nullable().optional())
            .field("password", string().min(PASSWORD_MIN).max(PASSWORD_MAX))
            .rule((body, path, issues) -> {
                boolean prescriber = false;
                for (JsonNode role : body.get("roles")) {
                    prescriber |= "prescriber".equals(role.textValue());
                }
                boolean named = body.hasNonNull("prescriberId");
                if (prescriber && !named) {
                    issues.custom(Issues.append(path, "prescriberId"), PRESCRIBER_REQUIRED);
                } else if (!prescriber && named) {
                    issues.custom(Issues.append(path, "prescriberId"), PRESCRIBER_NOT_ALLOWED);
                }
            });

    /** {@code POST /ops/v1/sessions}, bound to {@link SignInInput}: no format check, any miss is the same 401. */
    static final ObjectSchema SIGN_IN = object()
            .field("email", string().min(1).max(EMAIL_MAX))
            .field("password", string().min(1).max(PASSWORD_MAX));

    private IdentitySchemas() {
    }

    /** A validated {@code POST /ops/v1/accounts} body. */
    public record NewAccount(String email, String name, List<String> roles, String prescriberId, String password) {
    }

    /** A validated {@code POST /ops/v1/sessions} body. */
    public record SignInInput(String email, String password) {
    }
}
