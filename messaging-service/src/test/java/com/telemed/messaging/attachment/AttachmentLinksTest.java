package com.telemed.messaging.attachment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Derived link tokens (issue #38): their shape, and a key's rotation; downloads are AttachmentTest's. */
class AttachmentLinksTest {

    static final String OLD = "old-attachment-link-key-0123456789abcdef";
    static final String NEW = "new-attachment-link-key-fedcba9876543210";

    @Test
    void aTokenIsTheSameOnEveryReadAndShapedAsTheRandomOnesWere() {
        UUID id = UUID.fromString("0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9");
        AttachmentLinks links = new AttachmentLinks(List.of(OLD));
        String token = links.token(id);
        assertTrue(token.matches("[A-Za-z0-9_-]{43}"), token);
        assertEquals(token, new AttachmentLinks(List.of(OLD)).token(id));
        assertNotEquals(token, links.token(UUID.randomUUID()));
        assertEquals(Optional.of(id), links.attachmentId(token));
        // Any other character anywhere, or another length: no attachment.
        for (int i = 0; i < token.length(); i++) {
            char other = token.charAt(i) == 'A' ? 'B' : 'A';
            assertEquals(Optional.empty(), links.attachmentId(token.substring(0, i) + other + token.substring(i + 1)), "at " + i);
        }
        assertEquals(Optional.empty(), links.attachmentId(token + "A"));
        assertEquals(Optional.empty(), links.attachmentId(token.substring(1)));
        assertEquals(Optional.empty(), links.attachmentId(null));
        assertThrows(IllegalStateException.class, () -> new AttachmentLinks(List.of()).token(id));
    }

    @Test
    void aNewKeyFirstMakesNewLinksWhileTheOldOnesStillDownloadUntilItsKeyIsGone() {
        UUID id = UUID.randomUUID();
        String before = new AttachmentLinks(List.of(OLD)).token(id);
        AttachmentLinks rotating = new AttachmentLinks(List.of(NEW, OLD));
        String after = rotating.token(id);
        assertNotEquals(before, after);
        assertEquals(Optional.of(id), rotating.attachmentId(before));
        assertEquals(Optional.of(id), rotating.attachmentId(after));
        AttachmentLinks rotated = new AttachmentLinks(List.of(NEW));
        assertEquals(Optional.empty(), rotated.attachmentId(before));
        assertEquals(Optional.of(id), rotated.attachmentId(after));
    }
}
