package com.telemed.messaging.attachment;

import io.smallrye.config.ConfigMapping;
import java.util.List;
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

    /**
     * The keys links' tokens are derived with ({@code ATTACHMENT_LINK_KEY}, {@link AttachmentLinks}):
     * comma-separated, the first makes the links answers show, every one is accepted on download; 32
     * characters at least each. Required in production, and never its development value
     * ({@code MessagingProductionSettings}); the development profiles have one.
     */
    Optional<List<String>> linkKey();
}
