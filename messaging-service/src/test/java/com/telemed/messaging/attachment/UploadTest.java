package com.telemed.messaging.attachment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.telemed.common.error.ApiException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The checks of an upload before anything is stored, and the name kept. */
class UploadTest {

    private static final Path FILE = Path.of("upload");

    private static ApiException refused(Path file, String type, long size) {
        return assertThrows(ApiException.class, () -> Upload.checked(file, "a.pdf", type, size));
    }

    @Test
    void presenceThenSizeThenType() {
        assertEquals("No file uploaded", refused(null, "application/zip", Upload.MAX_BYTES + 1).getMessage());
        ApiException tooLarge = refused(FILE, "application/zip", Upload.MAX_BYTES + 1);
        assertEquals(413, tooLarge.status());
        assertEquals("File too large", tooLarge.getMessage());
        assertEquals("File type application/zip not allowed", refused(FILE, "application/zip", 1).getMessage());
        assertEquals("File type application/octet-stream not allowed", refused(FILE, null, 1).getMessage());
        assertEquals(Upload.MAX_BYTES, Upload.checked(FILE, "a.pdf", "application/pdf", Upload.MAX_BYTES).size());
    }

    @Test
    void theTypeIsKeptWithoutParametersInLowerCase() {
        assertEquals("text/plain", Upload.checked(FILE, "a.txt", " Text/Plain ; charset=UTF-8", 1).contentType());
        assertEquals("File type text/html; charset=utf-8 not allowed", refused(FILE, "text/html; charset=utf-8", 1).getMessage());
    }

    @Test
    void theNameLosesFoldersAndWhatPostgresCannotStore() {
        assertEquals("scan.png", Upload.storableName("C:\\Users\\ada\\scan.png"));
        assertEquals("scan.png", Upload.storableName("/tmp/scan.png"));
        assertEquals("file", Upload.storableName(null));
        assertEquals("file", Upload.storableName("  "));
        assertEquals("file", Upload.storableName("folder/"));
        // Issue #38: a name of dots names a folder, and a link ending in /.. or /. leads elsewhere once normalized.
        assertEquals("file", Upload.storableName(".."));
        assertEquals("file", Upload.storableName("."));
        assertEquals("file", Upload.storableName("a\\.."));
        assertEquals("..x", Upload.storableName("../..x"));
        // Issue #38: at most 255 UTF-8 bytes of whole characters are kept (links and download headers carry the name).
        assertEquals("x".repeat(255), Upload.storableName("x".repeat(20_000)));
        assertEquals("\u00e9".repeat(127), Upload.storableName("\u00e9".repeat(2_000)));
        assertEquals("\uD83D\uDE00".repeat(63), Upload.storableName("\uD83D\uDE00".repeat(100)));
        assertEquals("a\uFFFDb\uFFFDc", Upload.storableName("a\u0000b\uD800c"));
        assertEquals("\uD83D\uDE00 ok \uFFFD", Upload.storableName("\uD83D\uDE00 ok \uDC00"));
    }
}
