package com.telemed.common.id;

import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

/** Identifier parsing shared by every service: a path id that is not one of ours is simply not found. */
public final class Ids {

    // The canonical 8-4-4-4-12 form only; UUID.fromString alone also accepts forms like "1-2-3-4-5".
    private static final Pattern UUID_FORM =
            Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

    private Ids() {
    }

    public static Optional<UUID> uuid(String text) {
        return text != null && UUID_FORM.matcher(text).matches() ? Optional.of(UUID.fromString(text)) : Optional.empty();
    }
}
