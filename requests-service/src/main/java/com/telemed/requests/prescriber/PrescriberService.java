package com.telemed.requests.prescriber;

import com.telemed.common.audit.AuditTrail;
import com.telemed.common.error.ApiException;
import com.telemed.common.id.Ids;
import com.telemed.common.json.Timestamps;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.util.UUID;

/** Creates and reads prescribers. One prescriber per email address, compared case-insensitively. */
@ApplicationScoped
public class PrescriberService {

    static final String NOT_FOUND = "Prescriber not found";

    private final AuditTrail audit;

    public PrescriberService(AuditTrail audit) {
        this.audit = audit;
    }
    static final String EMAIL_TAKEN = "Prescriber with this email already exists";

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
        audit.record("prescriber.create", "prescriber", prescriber.id.toString(), null);
        return prescriber;
    }

    /** The prescriber with this id; an unknown or malformed id is {@code 404 Prescriber not found}. */
    public Prescriber get(String id) {
        UUID uuid = Ids.uuid(id).orElseThrow(() -> ApiException.notFound(NOT_FOUND));
        Prescriber prescriber = Prescriber.findById(uuid);
        if (prescriber == null) {
            throw ApiException.notFound(NOT_FOUND);
        }
        return prescriber;
    }
}
