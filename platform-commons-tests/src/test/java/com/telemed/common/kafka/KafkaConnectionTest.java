package com.telemed.common.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;

class KafkaConnectionTest {

    /** What Quarkus's default-kafka-broker map holds for a deployment on a SASL_SSL cluster. */
    private static Map<String, Object> deployment() {
        Map<String, Object> shared = new LinkedHashMap<>();
        shared.put("bootstrap.servers", "kafka-1:9093,kafka-2:9093");
        shared.put("security.protocol", "SASL_SSL");
        shared.put("sasl.mechanism", "SCRAM-SHA-512");
        shared.put("sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"u\" password=\"p\";");
        shared.put("ssl.truststore.location", "/etc/kafka-ca/truststore.p12");
        shared.put("ssl.truststore.type", "PKCS12");
        shared.put("group.id", "requests-service");
        shared.put("port", "tcp://10.0.0.1:9092");
        shared.put("ssl.keystore.location", "");
        return shared;
    }

    @Test
    void theProducerConnectsAsTheConsumersDoAndKeepsItsOwnSettings() {
        Map<String, Object> config = KafkaConnection.clientConfig(deployment(), ProducerConfig.configNames(), Map.of(
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.CLIENT_ID_CONFIG, "outbox-relay"));

        Map<String, Object> expected = new TreeMap<>();
        expected.put("bootstrap.servers", "kafka-1:9093,kafka-2:9093");
        expected.put("security.protocol", "SASL_SSL");
        expected.put("sasl.mechanism", "SCRAM-SHA-512");
        expected.put("sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"u\" password=\"p\";");
        expected.put("ssl.truststore.location", "/etc/kafka-ca/truststore.p12");
        expected.put("ssl.truststore.type", "PKCS12");
        expected.put("acks", "all");
        expected.put("client.id", "outbox-relay");
        // group.id is a consumer's, "port" no setting at all (a KAFKA_PORT service link), an empty value unset.
        assertEquals(expected, config);
    }

    @Test
    void theClientsOwnSettingWinsOverTheSharedOne() {
        Map<String, Object> shared = new LinkedHashMap<>(deployment());
        shared.put("client.id", "kafka-consumer-care-events");
        shared.put("request.timeout.ms", "30000");

        Map<String, Object> config = KafkaConnection.clientConfig(shared, AdminClientConfig.configNames(), Map.of(
                AdminClientConfig.CLIENT_ID_CONFIG, "readiness-check",
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 2500));

        assertEquals("readiness-check", config.get("client.id"));
        assertEquals(2500, config.get("request.timeout.ms"));
        assertEquals("SASL_SSL", config.get("security.protocol"));
        assertEquals(null, config.get("group.id"));
    }
}
