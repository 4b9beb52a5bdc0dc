package com.telemed.gateway.identity;

import com.telemed.common.audit.AuditTrail;
import com.telemed.common.error.ApiException;
import com.telemed.common.id.Ids;
import com.telemed.common.json.Timestamps;
import com.telemed.gateway.partner.Keys;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Pharmacy credentials (people-and-pages.md, "Credentials on /ops"): a key {@code phk_} + 32
 * lowercase hex, shown once and stored as its SHA-256, that opens {@code /ops} as
 * {@code pharmacy:<pharmacyId>} until revoked. The gateway keeps no list of pharmacies: any id of
 * the principal's form (1 to 128 letters, digits, {@code _}, {@code -}, {@code .}) may hold keys.
 */
@ApplicationScoped
public class PharmacyCredentials {

    private final AuditTrail audit;

    public PharmacyCredentials(AuditTrail audit) {
        this.audit = audit;
    }

    static final String PHARMACY_NOT_FOUND = "Pharmacy not found";
    static final String NOT_FOUND = "Credential not found";
    /** The id form of {@code com.telemed.common.access.Principal}. */
    private static final Pattern PHARMACY_ID = Pattern.compile("[A-Za-z0-9_.-]{1,128}");

    @Transactional
    public IdentityViews.PharmacyKeyView issue(String pharmacyId) {
        PharmacyCredential credential = new PharmacyCredential();
        credential.id = UUID.randomUUID();
        credential.pharmacyId = pharmacy(pharmacyId);
        String key = Keys.generate(BearerTokens.PHARMACY_KEY_PREFIX);
        credential.keyHash = Keys.hash(key);
        credential.createdAt = Timestamps.now();
        credential.persist();
        audit.record("pharmacy_credential.create", "pharmacy_credential", credential.id.toString(), null);
        return new IdentityViews.PharmacyKeyView(credential.id, key);
    }

    /** Revokes the pharmacy's credential: its key is refused on the very next call, on every replica. */
    @Transactional
    public void revoke(String pharmacyId, String credentialId) {
        String pharmacy = pharmacy(pharmacyId);
        PharmacyCredential credential = Ids.uuid(credentialId)
                .flatMap(id -> PharmacyCredential.<PharmacyCredential>find(
                        "id = ?1 and pharmacyId = ?2 and revokedAt is null", id, pharmacy).<PharmacyCredential>firstResultOptional())
                .orElseThrow(() -> ApiException.notFound(NOT_FOUND));
        credential.revokedAt = Timestamps.now();
        audit.record("pharmacy_credential.revoke", "pharmacy_credential", credential.id.toString(), null);
    }

    private static String pharmacy(String pharmacyId) {
        if (pharmacyId == null || !PHARMACY_ID.matcher(pharmacyId).matches()) {
            throw ApiException.notFound(PHARMACY_NOT_FOUND);
        }
        return pharmacyId;
    }
}
