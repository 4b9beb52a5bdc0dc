package com.telemed.testkit.stack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;

/** The operator key of the local stack: OPS_API_KEY when set, else one generated once and kept. */
final class OperatorKey {

    private OperatorKey() {
    }

    static String resolve(String fromEnvironment, Path keptIn) {
        if (fromEnvironment != null && !fromEnvironment.isBlank()) {
            return fromEnvironment.trim();
        }
        try {
            if (Files.exists(keptIn)) {
                return Files.readString(keptIn).trim();
            }
            byte[] random = new byte[24];
            new SecureRandom().nextBytes(random);
            String key = "ops_" + HexFormat.of().formatHex(random);
            Files.createDirectories(keptIn.getParent());
            Files.writeString(keptIn, key + "\n");
            Files.setPosixFilePermissions(keptIn, PosixFilePermissions.fromString("rw-------"));
            return key;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot keep the operator key in " + keptIn, e);
        }
    }
}
