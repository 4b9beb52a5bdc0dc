package com.telemed.common.kafka;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * How the platform's own Kafka clients (the outbox relay's producer, the broker check's admin
 * client) connect: with exactly the connection settings the service's consumers use. Those come
 * from Quarkus's {@code default-kafka-broker} map, which holds every {@code kafka.*} property and
 * every {@code KAFKA_*} environment variable ({@code KAFKA_SASL_JAAS_CONFIG} becomes
 * {@code sasl.jaas.config}), so a deployment's bootstrap servers, {@code security.protocol},
 * SASL and TLS settings reach every client of the service, not only the SmallRye channels.
 *
 * <p>Only settings the client knows are taken ({@code group.id} is a consumer's, for one), and
 * the client's own settings win over the shared ones.
 */
public final class KafkaConnection {

    /** The CDI identifier of Quarkus's map of the service's Kafka settings. */
    public static final String DEFAULT_BROKER = "default-kafka-broker";

    private KafkaConnection() {
    }

    /**
     * @param shared the service's Kafka settings (keys without the {@code kafka.} prefix)
     * @param known  the setting names the client accepts ({@code ProducerConfig.configNames()} ...)
     * @param own    the client's own settings, which win
     */
    public static Map<String, Object> clientConfig(Map<String, Object> shared, Set<String> known, Map<String, Object> own) {
        Map<String, Object> config = new TreeMap<>();
        shared.forEach((name, value) -> {
            if (known.contains(name) && value != null && !value.toString().isEmpty()) {
                config.put(name, value);
            }
        });
        config.putAll(own);
        return config;
    }
}
