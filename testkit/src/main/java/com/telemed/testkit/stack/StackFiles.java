package com.telemed.testkit.stack;

import com.telemed.testkit.infra.AtomicFiles;
import com.telemed.testkit.infra.EmbeddedMailServer;
import com.telemed.testkit.infra.MailServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * What the supervisor tells ./stack: a pid file per process it started, where the SMTP server
 * listens ({@code mail.properties}: it runs inside the supervisor, so it has no pid file), and
 * {@code ready} or {@code failed} once it knows, all under {@code .stack/run/}.
 */
final class StackFiles {

    private final Path directory;
    private final Path run;

    StackFiles(Path directory) {
        this.directory = directory;
        this.run = directory.resolve("run");
    }

    Path directory() {
        return directory;
    }

    void reset() {
        clearRun();
        try {
            Files.createDirectories(run);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    void writePid(String name, long pid) {
        if (pid > 0) {
            write(name + ".pid", Long.toString(pid));
        }
    }

    /**
     * {@code host}, {@code smtpPort}, then {@code imapPort} when the server is ours and
     * {@code external=true} when it is not: what {@code ./stack status} probes and
     * {@code ./stack env} exports.
     */
    void writeMail(MailServer mail) {
        StringBuilder content = new StringBuilder("host=" + mail.host() + "\nsmtpPort=" + mail.port());
        if (mail instanceof EmbeddedMailServer embedded) {
            embedded.imapPort().ifPresent(imap -> content.append("\nimapPort=").append(imap));
        } else {
            content.append("\nexternal=true");
        }
        write("mail.properties", content.toString());
    }

    void markReady(String summary) {
        write("ready", summary);
    }

    void markFailed(String message) {
        write("failed", message);
    }

    void clearRun() {
        if (!Files.exists(run)) {
            return;
        }
        try (Stream<Path> files = Files.walk(run)) {
            // The failure report stays for ./stack to print.
            files.sorted(Comparator.reverseOrder())
                    .filter(path -> !path.equals(run) && !path.getFileName().toString().equals("failed"))
                    .forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void write(String name, String content) {
        AtomicFiles.write(run.resolve(name), content + "\n", false);
    }
}
