package com.telemed.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

    @BeforeAll
    static void start() {
        infrastructure = Infrastructure.startEphemeral();
    }

    @AfterAll
    static void stop() {
        infrastructure.close();
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
