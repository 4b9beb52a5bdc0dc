package com.telemed.webhook.settings;

import com.telemed.common.audit.AuditTrail;
import com.telemed.common.error.ApiException;
import com.telemed.common.json.Timestamps;
import com.telemed.webhook.address.WebhookUrls;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.transaction.Transactional;
import java.net.URI;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A partner's webhook URL and secret. The secret is generated when a URL is first saved and
 * changes only by rotation; clearing the URL keeps it (a URL saved again later signs with the
 * same secret).
 */
@ApplicationScoped
public class SettingsService {

    public static final String NOT_FOUND = "Webhook not found";
    public static final String NO_URL = "No webhook URL configured";

    private final EntityManager entityManager;
    private final SecretCipher cipher;
    private final WebhookUrls urls;
    private final AuditTrail audit;

    public SettingsService(EntityManager entityManager, SecretCipher cipher, WebhookUrls urls, AuditTrail audit) {
        this.entityManager = entityManager;
        this.cipher = cipher;
        this.urls = urls;
        this.audit = audit;
    }

    /**
     * In production a URL must be https and resolve to allowed addresses only, now (checked
     * again at every attempt: DNS can change). Done before the transaction: DNS can be slow.
     */
    public void checkAllowed(String url) {
        if (url == null || !urls.policy().production()) {
            return;
        }
        URI uri = WebhookUrls.parse(url).orElseThrow(() -> ApiException.badRequest("Invalid url"));
        try {
            urls.target(uri);
        } catch (WebhookUrls.Refused refused) {
            throw ApiException.badRequest(switch (refused.getMessage()) {
                case WebhookUrls.HTTPS_REQUIRED -> "Webhook URL must use https";
                case WebhookUrls.NOT_RESOLVED -> "Webhook URL host could not be resolved";
                default -> "Webhook URL resolves to an address that is not allowed";
            });
        }
    }

    /** Sets or clears the URL (a URL already checked by {@link #checkAllowed}); audited {@code webhook.update}. */
    @Transactional
    public SettingsViews.Settings put(String partnerId, String url) {
        return view(save(partnerId, url, true).settings());
    }

    /**
     * The partner's own {@code PUT /v1/webhook} (partner-extensions.md, Webhook settings, self-service):
     * the same save, answering the secret only when this call generated it (the first URL saved).
     * Not audited: the audit trail records {@code /ops} changes (people-and-pages.md, Audit), and no
     * other {@code /v1} change writes an entry.
     */
    @Transactional
    public SettingsViews.Own putOwn(String partnerId, String url) {
        Saved saved = save(partnerId, url, false);
        return new SettingsViews.Own(saved.settings().url, saved.generated());
    }

    /** {@code GET /v1/webhook}: the URL and whether a secret exists, never the secret (an empty answer for a partner without settings). */
    public SettingsViews.Current current(String partnerId) {
        return Optional.ofNullable(entityManager.find(WebhookSettings.class, partnerId))
                .map(settings -> new SettingsViews.Current(settings.url, settings.secretEncrypted != null))
                .orElseGet(() -> new SettingsViews.Current(null, false));
    }

    /**
     * A new secret for a partner that has one; deliveries signed before keep their signature. Audited
     * {@code webhook_secret.rotate} (ids only: never the secret). {@code 404 Webhook not found} without one.
     */
    @Transactional
    public SettingsViews.Secret rotate(String partnerId) {
        return rotate(partnerId, true, () -> ApiException.notFound(NOT_FOUND));
    }

    /**
     * The partner's own rotation, {@code POST /v1/webhook/secret/rotate}: the same rotation, not audited (see
     * {@link #putOwn}); {@code 409 No webhook URL configured} for a partner that never saved a URL (the
     * wording of the family's other calls that need a URL, partner-extensions.md).
     */
    @Transactional
    public SettingsViews.Secret rotateOwn(String partnerId) {
        return rotate(partnerId, false, () -> new ApiException(409, NO_URL));
    }

    private SettingsViews.Secret rotate(String partnerId, boolean audited, Supplier<ApiException> none) {
        WebhookSettings settings = Optional.ofNullable(
                        entityManager.find(WebhookSettings.class, partnerId, LockModeType.PESSIMISTIC_WRITE))
                .filter(found -> found.secretEncrypted != null)
                .orElseThrow(none);
        if (audited) {
            audit.record("webhook_secret.rotate", "webhook_secret", partnerId, partnerId);
        }
        String secret = cipher.newSecret();
        store(settings, cipher.encrypt(partnerId, secret));
        settings.updatedAt = Timestamps.now();
        return new SettingsViews.Secret(secret);
    }

    /** A saved row and the secret this save generated (null when it had one already or the URL is null). */
    private record Saved(WebhookSettings settings, String generated) {
    }

    private Saved save(String partnerId, String url, boolean audited) {
        WebhookSettings settings = lockedOrCreated(partnerId);
        if (audited) {
            audit.record("webhook.update", "webhook", partnerId, partnerId);
        }
        String generated = null;
        if (url != null && settings.secretEncrypted == null) {
            generated = cipher.newSecret();
            store(settings, cipher.encrypt(partnerId, generated));
        }
        settings.url = url;
        settings.updatedAt = Timestamps.now();
        return new Saved(settings, generated);
    }

    /**
     * The partner's current secret, decrypted; empty when none was ever generated. Throws
     * {@link UnreadableSecret} (logged here) when it cannot be decrypted: rotating gives the partner
     * a new, readable one.
     */
    public Optional<String> secret(WebhookSettings settings) {
        if (settings.secretEncrypted == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(cipher.decrypt(settings.partnerId, settings.secretKeyId, settings.secretEncrypted));
        } catch (UnreadableSecret unreadable) {
            cipher.logUnreadable(unreadable);
            throw unreadable;
        }
    }

    private static void store(WebhookSettings settings, SecretCipher.Sealed sealed) {
        settings.secretEncrypted = sealed.bytes();
        settings.secretKeyId = sealed.keyId();
    }

    private SettingsViews.Settings view(WebhookSettings settings) {
        return new SettingsViews.Settings(settings.url, secret(settings).orElse(null));
    }

    /** The row, locked; created empty first if missing (race-safe: concurrent first saves create one row). */
    private WebhookSettings lockedOrCreated(String partnerId) {
        Instant now = Timestamps.now();
        entityManager.createNativeQuery("INSERT INTO webhook_settings (partner_id, url, secret_encrypted, created_at, updated_at)"
                        + " VALUES (:partnerId, NULL, NULL, :now, :now) ON CONFLICT (partner_id) DO NOTHING")
                .setParameter("partnerId", partnerId)
                .setParameter("now", now)
                .executeUpdate();
        return entityManager.find(WebhookSettings.class, partnerId, LockModeType.PESSIMISTIC_WRITE);
    }
}
