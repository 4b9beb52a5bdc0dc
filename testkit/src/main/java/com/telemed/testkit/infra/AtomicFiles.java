package com.telemed.testkit.infra;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Files the launcher keeps (pid files, the operator key, the demo credentials) are written beside
 * their place and renamed into it, so a launcher killed half-way leaves the old file or the new
 * one, never a truncated one that the next start would trust.
 */
public final class AtomicFiles {

    private AtomicFiles() {
    }

    /** Writes {@code content}; with {@code ownerOnly} the file is readable by its owner alone. */
    public static void write(Path file, String content, boolean ownerOnly) {
        try {
            Files.createDirectories(file.getParent());
            Path temporary = file.resolveSibling(file.getFileName() + ".tmp-" + ProcessHandle.current().pid());
            Files.writeString(temporary, content, StandardCharsets.UTF_8);
            if (ownerOnly) {
                Files.setPosixFilePermissions(temporary, PosixFilePermissions.fromString("rw-------"));
            }
            Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
