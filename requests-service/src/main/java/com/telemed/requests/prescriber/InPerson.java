package com.telemed.requests.prescriber;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
 * before; an administrator may set anyone's availability.
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
     * A prescriber's action's body as the prescriber in person sends it: their {@code prescriberId}
     * filled in when left out (or null); another one refused. Anyone else's body is unchanged (the
     * operator key names the prescriber; validation asks for it).
     */
    public JsonNode body(JsonNode body) {
        Optional<String> own = prescriber();
        if (own.isEmpty() || !(body instanceof ObjectNode object)) {
            return body;
        }
        JsonNode sent = object.get("prescriberId");
        if (sent == null || sent.isNull()) {
            ObjectNode acted = object.deepCopy();
            acted.put("prescriberId", own.get());
            return acted;
        }
        if (sent.isTextual() && !same(sent.asText(), own.get())) {
            throw mismatch();
        }
        return body;
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

    private static boolean same(String sent, String own) {
        return sent.equalsIgnoreCase(own);
    }

    private static ApiException mismatch() {
        return new ApiException(403, MISMATCH);
    }
}
