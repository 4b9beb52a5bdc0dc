package com.telemed.catalogue.drug;

import static com.telemed.common.validation.Schemas.string;

import com.telemed.common.validation.StringSchema;
import java.util.regex.Pattern;

/** Drug identifiers: a slug of letters, digits, {@code -} and {@code _}, 1 to 128 characters. */
public final class DrugIds {

    public static final int MAX_LENGTH = 128;
    public static final Pattern SLUG = Pattern.compile("^[A-Za-z0-9_-]+$");
    public static final String INVALID = "Drug id may contain only letters, digits, '-' and '_'";

    private DrugIds() {
    }

    /** A fresh schema for a drug id: {@code too_small}/{@code too_big} on length, {@code invalid_string} (regex) on characters. */
    public static StringSchema schema() {
        return string().min(1).max(MAX_LENGTH).regex(SLUG, INVALID);
    }
}
