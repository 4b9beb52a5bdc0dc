package com.telemed.gateway.partner;

import com.telemed.common.error.ApiException;
import com.telemed.common.json.Timestamps;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** Partner accounts and their credentials. No lookup is cached: a rotation holds on the next call. */
@ApplicationScoped
public class PartnerService {

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
        return apiKey;
    }

    @Transactional
    public List<String> setEmbedOrigins(UUID id, List<String> origins) {
        Partner partner = find(id);
        partner.embedOrigins.clear();
        origins.stream().distinct().forEach(partner.embedOrigins::add);
        partner.updatedAt = Timestamps.now();
        return List.copyOf(partner.embedOrigins);
    }

    /** The partner whose API key this is, compared on its hash in constant time. */
    @Transactional
    public Optional<UUID> partnerForApiKey(String apiKey) {
        String hash = Keys.hash(apiKey);
        return Partner.<Partner>find("apiKeyHash", hash).firstResultOptional()
                .filter(partner -> Keys.matches(apiKey, partner.apiKeyHash))
                .map(partner -> partner.id);
    }

    /** The partner whose publishable key this is, with its allowed embed origins. */
    @Transactional
    public Optional<Partner> partnerForPublishableKey(String publishableKey) {
        String hash = Keys.hash(publishableKey);
        Optional<Partner> partner = Partner.<Partner>find("publishableKeyHash", hash).firstResultOptional()
                .filter(found -> Keys.matches(publishableKey, found.publishableKeyHash));
        partner.ifPresent(found -> found.embedOrigins.size());
        return partner;
    }

    /** Whether any partner allows this origin: what an embed preflight, which carries no key, can ask. */
    @Transactional
    public boolean anyPartnerAllowsOrigin(String origin) {
        return Partner.count("select count(p) from Partner p join p.embedOrigins o where o = ?1", origin) > 0;
    }

    private static Partner find(UUID id) {
        Partner partner = Partner.findById(id);
        if (partner == null) {
            throw ApiException.notFound("Partner not found");
        }
        return partner;
    }
}
