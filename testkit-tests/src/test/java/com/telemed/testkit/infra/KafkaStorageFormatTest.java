package com.telemed.testkit.infra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A launcher killed while Kafka's storage was being formatted leaves its formatter running as an
 * orphan, and its partial folder behind. Neither may spoil the next start's storage: CI once failed
 * {@code ./stack up} after a killed run with "Invalid cluster.id in .../data.partial/meta.properties",
 * the orphan having written its cluster id into the folder the next start was formatting.
 */
class KafkaStorageFormatTest {

    private static final String FOREIGN_CLUSTER = "CgjT8j8UTfevVvNcb7E7Lw";
    private static final String FOREIGN_META = "version=1\ncluster.id=" + FOREIGN_CLUSTER
            + "\nnode.id=1\ndirectory.id=JpTt0VN4Qw2m3Re0WJRgSg\n";

    @TempDir
    Path home;

    @Test
    void anOrphanFormatterAndLeftoverPartialFoldersCannotSpoilTheNextStartsStorage() throws Exception {
        Path directory = Files.createDirectories(home.resolve("kafka"));
        // What killed starts left: a partial folder of each naming, formatted by another cluster, and
        // their settings.
        Path leftover = Files.createDirectories(directory.resolve("data.partial-4242-1f"));
        Files.writeString(leftover.resolve("meta.properties"), FOREIGN_META);
        Files.writeString(directory.resolve("format-4242-1f.properties"), "log.dirs=" + leftover + "\n");
        Files.writeString(directory.resolve("format.properties"), "log.dirs=" + directory.resolve("data.partial") + "\n");
        // The orphan formatter, still writing its cluster's identity where it formats, during the whole start.
        AtomicBoolean starting = new AtomicBoolean(true);
        AtomicInteger writes = new AtomicInteger();
        Thread orphan = new Thread(() -> {
            while (starting.get()) {
                for (String folder : new String[] {"data.partial", "data.partial-31337-2a"}) {
                    try {
                        Path partial = Files.createDirectories(directory.resolve(folder));
                        Files.writeString(partial.resolve("meta.properties"), FOREIGN_META);
                        writes.incrementAndGet();
                    } catch (IOException e) {
                        // the start removed the folder meanwhile: write it again on the next round
                    }
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }
        }, "orphan-formatter");
        orphan.setDaemon(true);
        orphan.start();

        EmbeddedKafkaBroker broker;
        try {
            broker = EmbeddedKafkaBroker.start(directory, 0, 0, true);
        } finally {
            starting.set(false);
            orphan.join();
        }
        try {
            assertTrue(writes.get() > 100, "the orphan wrote throughout the start: " + writes.get());
            Properties meta = new Properties();
            try (Reader in = Files.newBufferedReader(directory.resolve("data/meta.properties"))) {
                meta.load(in);
            }
            String clusterId = meta.getProperty("cluster.id");
            assertNotEquals(FOREIGN_CLUSTER, clusterId, "the storage is this start's own");
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
                assertEquals(clusterId, admin.describeCluster().clusterId().get(30, TimeUnit.SECONDS));
            }
            assertFalse(Files.exists(leftover), "a killed start's partial folder is removed");
            assertFalse(Files.exists(directory.resolve("format-4242-1f.properties")));
            assertFalse(Files.exists(directory.resolve("format.properties")));
            try (var files = Files.list(directory)) {
                assertEquals(0, files.filter(path -> path.getFileName().toString().startsWith("format")).count(),
                        "this start's format settings are removed once used");
            }
        } finally {
            broker.stop();
        }
    }
}
