package com.telemed.requests.prescriber;

import com.telemed.common.access.Caller;
import com.telemed.common.access.Principal;
import com.telemed.common.access.Principal.Role;
import com.telemed.common.error.ApiException;
import jakarta.enterprise.context.RequestScoped;
import java.util.Optional;

/**
 * "A prescriber acts in person" (people-and-pages.md), the part only requests-service can decide:
 * platform-commons' {@code access.OpsAccessFilter} has already let only a prescriber (or, outside
 * production, the operator key) reach a prescriber's action; here a prescriber acts as themselves.
 * A {@code prescriber} principal may leave {@code prescriberId} out (it is theirs); when sent it must
 * be theirs, and their availability and appointments theirs, otherwise
 * {@code 403 {"error":"Prescriber mismatch"}}. The operator key names the prescriber it acts for, as
 * before; an administrator may set anyone's availability. A decision's body is read with the prescriber in person
 * by its resource ({@code review.ReviewSchemas.actingInput}).
 */
@RequestScoped
public class InPerson {

    public static final String MISMATCH = "Prescriber mismatch";

    private final Caller caller;

    public InPerson(Caller caller) {
        this.caller = caller;
    }

    /** The prescriber the call is, when it is a prescriber in person (a prescriber account names one). */
    public Optional<String> prescriber() {
        Optional<Principal> principal = caller.principal()
                .filter(found -> found.type() == Principal.Type.PERSON && found.has(Role.PRESCRIBER));
        if (principal.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(principal.get().prescriberId().orElseThrow(InPerson::mismatch));
    }

    /**
     * What belongs to {@code prescriberId} (their availability, their appointment): a prescriber in
     * person must be that one, unless they are an administrator too.
     */
    public void requireOwn(String prescriberId) {
        boolean admin = caller.principal().map(principal -> principal.has(Role.ADMIN)).orElse(false);
        Optional<String> own = prescriber();
        if (!admin && own.isPresent() && !same(own.get(), prescriberId)) {
            throw mismatch();
        }
    }

    /** Whether a prescriber id sent is the prescriber's own (ids compare without case). */
    public static boolean same(String sent, String own) {
        return sent.equalsIgnoreCase(own);
    }

    /** {@code 403 {"error":"Prescriber mismatch"}}. */
    public static ApiException mismatch() {
        return new ApiException(403, MISMATCH);
    }
}
