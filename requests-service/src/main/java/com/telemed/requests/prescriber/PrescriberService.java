package com.telemed.requests.prescriber;

import com.telemed.common.error.ApiException;
import com.telemed.common.json.Timestamps;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.util.UUID;
import java.util.regex.Pattern;

/** Creates and reads prescribers. One prescriber per email address, compared case-insensitively. */
@ApplicationScoped
public class PrescriberService {

    static final String NOT_FOUND = "Prescriber not found";
    static final String EMAIL_TAKEN = "Prescriber with this email already exists";

    // The canonical 8-4-4-4-12 form only; UUID.fromString alone also accepts forms like "1-2-3-4-5".
    private static final Pattern UUID_FORM =
            Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

    /**
     * Creates the prescriber, or {@code 400 Prescriber with this email already exists} when the
     * email is taken in any letter case, whether long ago or by a concurrent create: the database's
     * unique index on {@code lower(email)} decides, so exactly one of several racing creates wins.
     */
    @Transactional
    public Prescriber create(NewPrescriber input) {
        Prescriber prescriber = new Prescriber();
        prescriber.id = UUID.randomUUID();
        prescriber.name = input.name();
        prescriber.email = input.email();
        prescriber.createdAt = Timestamps.now();
        if (!prescriber.insertUnlessEmailTaken()) {
            throw ApiException.badRequest(EMAIL_TAKEN);
        }
        return prescriber;
    }

    /** The prescriber with this id; an unknown or malformed id is {@code 404 Prescriber not found}. */
    public Prescriber get(String id) {
        if (id == null || !UUID_FORM.matcher(id).matches()) {
            throw ApiException.notFound(NOT_FOUND);
        }
        Prescriber prescriber = Prescriber.findById(UUID.fromString(id));
        if (prescriber == null) {
            throw ApiException.notFound(NOT_FOUND);
        }
        return prescriber;
    }
}
