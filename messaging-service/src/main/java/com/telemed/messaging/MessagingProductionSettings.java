package com.telemed.messaging;

import com.telemed.common.config.ProductionRequirement;
import com.telemed.messaging.attachment.AttachmentLinks;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * messaging-service's settings production refuses to start without (platform-commons'
 * {@code ProductionSettings} adds them to the datasource's and the trust key's): the SMTP server
 * that prescribers' mails go to (without it every mail would wait in the outbox for ever), the
 * public base of attachment links (without it every link would point at a developer's machine) and
 * the key links' tokens are derived with (without a secret one anybody could make every link).
 */
@Singleton
public class MessagingProductionSettings {

    static final String LINK_KEY = "messaging.attachments.link-key";
    static final String LINK_KEY_VARIABLE = "ATTACHMENT_LINK_KEY";

    @Produces
    @Singleton
    ProductionRequirement smtpHost() {
        return ProductionRequirement.required("messaging.smtp-host", "SMTP_HOST");
    }

    @Produces
    @Singleton
    ProductionRequirement attachmentBaseUrl() {
        return ProductionRequirement.required("messaging.attachments.base-url", "ATTACHMENT_BASE_URL");
    }

    /**
     * {@code ATTACHMENT_LINK_KEY}: set, no key of the list the development value, each at least 32
     * characters. The value is never quoted.
     */
    @Produces
    @Singleton
    ProductionRequirement attachmentLinkKey() {
        return config -> {
            String name = ProductionRequirement.name(LINK_KEY, LINK_KEY_VARIABLE);
            Optional<String> value = ProductionRequirement.value(config, LINK_KEY);
            if (value.isEmpty()) {
                return List.of(name + " is not set");
            }
            List<String> keys = Arrays.stream(value.get().split(",")).map(String::strip).toList();
            if (keys.contains(AttachmentLinks.DEVELOPMENT_KEY)) {
                return List.of(name + " holds the development value");
            }
            if (keys.stream().anyMatch(key -> key.length() < AttachmentLinks.MIN_KEY_LENGTH)) {
                return List.of(name + " holds a key shorter than " + AttachmentLinks.MIN_KEY_LENGTH + " characters");
            }
            return List.of();
        };
    }
}
