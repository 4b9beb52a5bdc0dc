package com.telemed.messaging.attachment;

import io.smallrye.config.ConfigMapping;
import java.util.Optional;

/** {@code messaging.attachments.*}. */
@ConfigMapping(prefix = "messaging.attachments")
public interface AttachmentConfig {

    /**
     * The public base of download links, the gateway's address as partners reach it
     * ({@code ATTACHMENT_BASE_URL}); a link is {@code <base>/attachments/<token>/<file name>}.
     * Required in production ({@code MessagingProductionSettings}).
     */
    Optional<String> baseUrl();
}
