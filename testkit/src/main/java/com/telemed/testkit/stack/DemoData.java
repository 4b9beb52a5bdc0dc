package com.telemed.testkit.stack;

import java.net.URI;
import java.nio.file.Path;

/** The demo data ./stack creates once: a sandbox partner, a small catalogue and a prescriber. */
final class DemoData {

    private DemoData() {
    }

    static String seed(URI gateway, String opsKey, Path keptIn) {
        return "";
    }
}
