package com.telemed.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.testkit.concurrent.Parallel;
import com.telemed.testkit.infra.Infrastructure;
import com.telemed.testkit.kafka.TopicReader;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class InfrastructureTest {

    private static Infrastructure infrastructure;

    /** The JVM's shared set, as every Quarkus boot and platform of a test JVM gets it. */
    @BeforeAll
    static void start() {
        infrastructure = Infrastructure.shared();
    }

    @AfterAll
    static void stop() {
        // Closing the shared set does nothing: it stops with the JVM (the servers answer still).
        infrastructure.close();
        assertTrue(infrastructure.embeddedKafka().pid() > 0);
        assertTrue(infrastructure.embeddedMail().isRunning());
    }

    @Test
    void isOneSetPerJvm() {
        assertSame(infrastructure, Infrastructure.shared());
    }

    @Test
    void freshTopicsLeaveOnlyTheEventTopicsEmptyAndNoConsumerGroup() throws Exception {
        String bootstrap = infrastructure.kafka().bootstrapServers();
        try (var producer = new KafkaProducer<String, String>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap), new StringSerializer(), new StringSerializer())) {
            producer.send(new ProducerRecord<>("care.events", "key-1", "{\"note\":\"an earlier boot's\"}")).get();
            producer.send(new ProducerRecord<>("kit.fresh", "key-1", "{}")).get();
        }
        assertEquals(1, TopicReader.readExactly(bootstrap, "care.events", record -> true, 1, Duration.ofSeconds(30)).size());
        try (var consumer = new org.apache.kafka.clients.consumer.KafkaConsumer<String, String>(Map.of(
                "bootstrap.servers", bootstrap, "group.id", "kit-group", "auto.offset.reset", "earliest"),
                new org.apache.kafka.common.serialization.StringDeserializer(),
                new org.apache.kafka.common.serialization.StringDeserializer())) {
            consumer.subscribe(List.of("care.events"));
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30))
                    .until(() -> !consumer.poll(Duration.ofMillis(200)).isEmpty());
            consumer.commitSync();
        }

        infrastructure.freshTopics();

        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            assertEquals(Set.copyOf(Infrastructure.TOPICS), admin.listTopics().names().get());
            assertEquals(3, admin.describeTopics(List.of("care.events")).allTopicNames().get()
                    .get("care.events").partitions().size());
            assertEquals(List.of(), admin.listConsumerGroups().all().get().stream().map(g -> g.groupId()).toList());
        }
        assertEquals(List.of(), TopicReader.readToEnd(bootstrap, "care.events", Duration.ofSeconds(30)));
    }

    @Test
    void dropsADatabaseWithItsConnections() throws Exception {
        var postgres = infrastructure.postgres();
        postgres.ensureDatabase("kit_drop");
        try (var open = DriverManager.getConnection(postgres.jdbcUrl("kit_drop"), postgres.username(), postgres.password())) {
            infrastructure.dropDatabase("kit_drop");
            infrastructure.dropDatabase("kit_drop");
        }
        try (var connection = DriverManager.getConnection(postgres.jdbcUrl("postgres"), postgres.username(), postgres.password());
             var rows = connection.createStatement().executeQuery("SELECT count(*) FROM pg_database WHERE datname = 'kit_drop'")) {
            assertTrue(rows.next());
            assertEquals(0, rows.getInt(1));
        }
    }

    @Test
    void bringsBackWhatATestTookAway() throws Exception {
        var mail = infrastructure.embeddedMail();
        infrastructure.embeddedKafka().stop();
        mail.stop();

        infrastructure.ensureRunning();

        assertTrue(infrastructure.embeddedKafka().pid() > 0);
        assertTrue(mail.isRunning());
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", infrastructure.kafka().bootstrapServers()))) {
            assertTrue(admin.listTopics().names().get().containsAll(Infrastructure.TOPICS));
        }
    }

    @Test
    void createsADatabaseOnceAndServesIt() throws Exception {
        var postgres = infrastructure.postgres();
        postgres.ensureDatabase("kit_check");
        postgres.ensureDatabase("kit_check");
        try (var connection = DriverManager.getConnection(postgres.jdbcUrl("kit_check"), postgres.username(), postgres.password());
             var rows = connection.createStatement().executeQuery("SELECT current_database(), current_setting('max_connections')")) {
            assertTrue(rows.next());
            assertEquals("kit_check", rows.getString(1));
            assertEquals("300", rows.getString(2));
        }
    }

    @Test
    void concurrentCreatorsOfOneDatabaseAllSucceed() throws Exception {
        var postgres = infrastructure.postgres();
        for (int round = 0; round < 10; round++) {
            String name = "kit_race_" + round + "_" + Long.toHexString(System.nanoTime());
            // Two platforms of one JVM starting at once ensure the same databases (a run failed on
            // the unique violation of pg_database's name index): every creator gets its database.
            Parallel.map(6, List.of(1, 2, 3, 4, 5, 6), n -> {
                postgres.ensureDatabase(name);
                return n;
            });
            try (var connection = DriverManager.getConnection(postgres.jdbcUrl(name), postgres.username(), postgres.password());
                 var rows = connection.createStatement().executeQuery("SELECT current_database()")) {
                assertTrue(rows.next());
                assertEquals(name, rows.getString(1));
            }
        }
    }

    @Test
    void runsAnSmtpServerBesideThemForTheServicesMail() throws Exception {
        var mail = infrastructure.embeddedMail();
        assertSame(mail, infrastructure.mail());
        assertEquals("127.0.0.1", mail.host());
        assertTrue(mail.isRunning());
        assertTrue(mail.imapPort().isEmpty(), "SMTP only in tests");
        try (Socket socket = new Socket(mail.host(), mail.port())) {
            socket.setSoTimeout(10_000);
            String greeting = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII)).readLine();
            assertTrue(greeting.startsWith("220 "), greeting);
        }
    }

    @Test
    void restartsKafkaOnItsPortWithItsTopics() throws Exception {
        var broker = infrastructure.embeddedKafka();
        broker.stop();
        broker.start();
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", infrastructure.kafka().bootstrapServers()))) {
            assertTrue(admin.listTopics().names().get().containsAll(Infrastructure.TOPICS));
        }
    }

    @Test
    void aKilledBrokerComesBackOnItsPortWithWhatItAcknowledged() throws Exception {
        var broker = infrastructure.embeddedKafka();
        String bootstrap = infrastructure.kafka().bootstrapServers();
        try (var producer = new KafkaProducer<String, String>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap), new StringSerializer(), new StringSerializer())) {
            producer.send(new ProducerRecord<>("kit.kill", "key-1", "{\"note\":\"before the kill\"}")).get();
        }
        long pid = broker.pid();
        assertEquals(137, broker.kill(), "exit code of a JVM killed by SIGKILL (128 + 9)");
        assertEquals(-1, broker.pid());
        assertTrue(ProcessHandle.of(pid).isEmpty(), "the broker's JVM is gone");
        assertEquals(-1, broker.kill(), "killing a broker that is not running does nothing");
        broker.start();
        assertEquals(bootstrap, infrastructure.kafka().bootstrapServers());
        List<ConsumerRecord<String, String>> received = TopicReader.readExactly(bootstrap, "kit.kill", record -> true, 1,
                Duration.ofSeconds(30));
        assertEquals("{\"note\":\"before the kill\"}", received.get(0).value());
    }

    @Test
    void hasTheEventTopicsAndCarriesARecord() throws Exception {
        String bootstrap = infrastructure.kafka().bootstrapServers();
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            Set<String> topics = admin.listTopics().names().get();
            assertTrue(topics.containsAll(Infrastructure.TOPICS), topics.toString());
            assertEquals(3, admin.describeTopics(List.of("care.events")).allTopicNames().get()
                    .get("care.events").partitions().size());
        }
        try (var producer = new KafkaProducer<String, String>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap), new StringSerializer(), new StringSerializer())) {
            producer.send(new ProducerRecord<>("kit.check", "key-1", "{\"note\":\"hello\"}")).get();
        }
        List<ConsumerRecord<String, String>> received = TopicReader.readExactly(bootstrap, "kit.check", record -> true, 1,
                Duration.ofSeconds(30));
        assertEquals("key-1", received.get(0).key());
        assertEquals("{\"note\":\"hello\"}", received.get(0).value());
    }
}
