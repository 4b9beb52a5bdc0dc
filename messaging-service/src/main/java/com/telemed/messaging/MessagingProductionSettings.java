package com.telemed.messaging;

import com.telemed.common.config.ProductionRequirement;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * messaging-service's settings production refuses to start without (platform-commons'
 * {@code ProductionSettings} adds them to the datasource's and the trust key's): the SMTP server
 * that prescribers' mails go to (without it every mail would wait in the outbox for ever) and the
 * public base of attachment links (without it every link would point at a developer's machine).
 */
@Singleton
public class MessagingProductionSettings {

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
}
