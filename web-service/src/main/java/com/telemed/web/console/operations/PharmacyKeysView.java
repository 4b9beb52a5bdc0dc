package com.telemed.web.console.operations;

/**
 * The pharmacy keys page ({@code console-pharmacy-keys.html}): the issue form and the revoke form, what was
 * typed in the one posted, the gateway's refusal next to its field, and after an issue the new key, shown
 * once in this answer only.
 *
 * @param key the {@code phk_} key just issued, or null
 * @param notice {@code Pharmacy key issued} or {@code Pharmacy key revoked}, or null
 * @param error a refusal about no field, or null
 */
public record PharmacyKeysView(String pharmacyId, String pharmacyIdError, String revokePharmacyId, String revokePharmacyIdError,
                               String credentialId, String credentialIdError, String issuedPharmacyId, String issuedCredentialId, String key,
                               String notice, String error, String csrf) {

    public boolean failed() {
        return pharmacyIdError != null || revokePharmacyIdError != null || credentialIdError != null || error != null;
    }
}
