package com.telemed.testkit.stack;

import com.telemed.testkit.infra.AtomicFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * The operator key of the local stack: OPS_API_KEY when set, else one generated once and kept (an
 * empty kept file, left by an older launcher killed while writing it, is replaced). The kept file
 * always holds the key in use, also when it came from OPS_API_KEY: {@code ./stack env} prints it from
 * there (issue #45: it printed {@code $OPS_API_KEY} literally, empty in a new shell).
 */
final class OperatorKey {

    private OperatorKey() {
    }

    static String resolve(String fromEnvironment, Path keptIn) {
        try {
            String kept = Files.exists(keptIn) ? Files.readString(keptIn).trim() : "";
            if (fromEnvironment != null && !fromEnvironment.isBlank()) {
                String key = fromEnvironment.trim();
                if (!key.equals(kept)) {
                    AtomicFiles.write(keptIn, key + "\n", true);
                }
                return key;
            }
            if (!kept.isEmpty()) {
                return kept;
            }
            byte[] random = new byte[24];
            new SecureRandom().nextBytes(random);
            String key = "ops_" + HexFormat.of().formatHex(random);
            AtomicFiles.write(keptIn, key + "\n", true);
            return key;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot keep the operator key in " + keptIn, e);
        }
    }
}
