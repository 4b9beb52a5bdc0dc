package com.telemed.gateway.partner;

import com.telemed.common.audit.AuditTrail;
import com.telemed.common.error.ApiException;
import com.telemed.common.json.Timestamps;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.util.List;
import java.util.UUID;

/** Partner accounts and their credentials; the per-call lookups are {@link com.telemed.gateway.edge.Credentials}. */
@ApplicationScoped
public class PartnerService {

    private final AuditTrail audit;

    public PartnerService(AuditTrail audit) {
        this.audit = audit;
    }

    public record Created(Partner partner, String apiKey, String publishableKey) {
    }

    @Transactional
    public Created create(String name) {
        String apiKey = Keys.generate(Keys.API_KEY_PREFIX);
        String publishableKey = Keys.generate(Keys.PUBLISHABLE_KEY_PREFIX);
        Partner partner = new Partner();
        partner.id = UUID.randomUUID();
        partner.name = name;
        partner.apiKeyHash = Keys.hash(apiKey);
        partner.publishableKeyHash = Keys.hash(publishableKey);
        partner.createdAt = Timestamps.now();
        partner.updatedAt = partner.createdAt;
        partner.persist();
        audited("partner.create", partner);
        return new Created(partner, apiKey, publishableKey);
    }

    @Transactional
    public Partner get(UUID id) {
        return find(id);
    }

    /** Replaces the API key; the old hash is gone when this commits, so every replica refuses it. */
    @Transactional
    public String rotateApiKey(UUID id) {
        Partner partner = find(id);
        String apiKey = Keys.generate(Keys.API_KEY_PREFIX);
        partner.apiKeyHash = Keys.hash(apiKey);
        partner.updatedAt = Timestamps.now();
        audited("partner.api_key_rotate", partner);
        return apiKey;
    }

    @Transactional
    public List<String> setEmbedOrigins(UUID id, List<String> origins) {
        Partner partner = find(id);
        partner.embedOrigins.clear();
        origins.stream().distinct().forEach(partner.embedOrigins::add);
        partner.updatedAt = Timestamps.now();
        audited("partner.embed_origins_update", partner);
        return List.copyOf(partner.embedOrigins);
    }

    /** The partner's embed allow-list, in the order it was set. */
    @Transactional
    public List<String> embedOrigins(UUID id) {
        return List.copyOf(find(id).embedOrigins);
    }

    /** The change's audit entry, in its transaction: the partner is both the target and its partner. */
    private void audited(String action, Partner partner) {
        audit.record(action, "partner", partner.id.toString(), partner.id.toString());
    }

    private static Partner find(UUID id) {
        Partner partner = Partner.findById(id);
        if (partner == null) {
            throw ApiException.notFound("Partner not found");
        }
        return partner;
    }
}
