package com.telemed.deploy;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

import static com.telemed.deploy.Chart.Service.GATEWAY;
import static org.assertj.core.api.Assertions.assertThat;

/** Kafka settings reach the six services with a Kafka client (not the gateway nor web-service); the optional Job creates the platform's topics. */
class KafkaTest {

    private static final Set<String> TOPICS = Set.of("care.events", "catalogue.events", "member.events", "messaging.events");

    @Test
    void onlyServicesWithAKafkaClientGetKafkaSettings() {
        Manifests manifests = Chart.render(Chart.minimal());

        for (Chart.Service service : Chart.Service.all()) {
            Map<String, String> config = manifests.config(service);
            if (!service.kafka()) {
                assertThat(config.keySet()).noneMatch(key -> key.startsWith("KAFKA_"));
            } else {
                assertThat(config).containsEntry("KAFKA_BOOTSTRAP_SERVERS", "kafka-0.care.example:9092")
                        .containsEntry("KAFKA_SECURITY_PROTOCOL", "PLAINTEXT")
                        .doesNotContainKey("KAFKA_SASL_MECHANISM");
            }
        }
    }

    @Test
    void saslFromASecretInProduction() {
        Manifests manifests = Chart.render(Map.of(), Chart.PRODUCTION);

        for (Chart.Service service : Chart.Service.all()) {
            Map<String, String> secretEnv = SecretsTest.secretEnv(manifests.deployment(service));
            if (!service.kafka()) {
                assertThat(secretEnv).doesNotContainKey("KAFKA_SASL_JAAS_CONFIG");
                continue;
            }
            assertThat(manifests.config(service))
                    .containsEntry("KAFKA_BOOTSTRAP_SERVERS",
                            "b-1.kafka.telemed.example:9096,b-2.kafka.telemed.example:9096,b-3.kafka.telemed.example:9096")
                    .containsEntry("KAFKA_SECURITY_PROTOCOL", "SASL_SSL")
                    .containsEntry("KAFKA_SASL_MECHANISM", "SCRAM-SHA-512");
            assertThat(secretEnv).containsEntry("KAFKA_SASL_JAAS_CONFIG", "telemed-kafka/sasl-jaas-config");
        }
    }

    @Test
    void aPrivateCaIsMountedReadOnlyAndGivenToEveryKafkaClient() {
        Manifests manifests = Chart.render(Chart.minimal("kafka.securityProtocol", "SSL",
                "kafka.tls.caSecret", "corp-kafka-ca", "kafka.tls.caKey", "bundle.pem"));

        for (Chart.Service service : Chart.Service.all()) {
            Deployment deployment = manifests.deployment(service);
            Container container = deployment.getSpec().getTemplate().getSpec().getContainers().get(0);
            List<String> mounts = container.getVolumeMounts().stream()
                    .map(mount -> mount.getName() + ":" + mount.getMountPath() + ":" + mount.getReadOnly()).toList();
            List<String> volumes = deployment.getSpec().getTemplate().getSpec().getVolumes().stream().map(Volume::getName).toList();
            if (!service.kafka()) {
                assertThat(mounts).containsExactly("tmp:/tmp:null");
                assertThat(volumes).containsExactly("tmp");
                assertThat(manifests.config(service).keySet()).noneMatch(key -> key.startsWith("KAFKA_"));
                continue;
            }
            assertThat(mounts).containsExactly("tmp:/tmp:null", "kafka-ca:/etc/telemed/kafka-ca:true");
            Volume ca = deployment.getSpec().getTemplate().getSpec().getVolumes().get(1);
            assertThat(ca.getName()).isEqualTo("kafka-ca");
            assertThat(ca.getConfigMap()).isNull();
            assertThat(ca.getSecret().getSecretName()).isEqualTo("corp-kafka-ca");
            assertThat(ca.getSecret().getItems()).extracting(item -> item.getKey() + "->" + item.getPath())
                    .containsExactly("bundle.pem->bundle.pem");
            assertThat(manifests.config(service))
                    .containsEntry("KAFKA_SECURITY_PROTOCOL", "SSL")
                    .containsEntry("KAFKA_SSL_TRUSTSTORE_TYPE", "PEM")
                    .containsEntry("KAFKA_SSL_TRUSTSTORE_LOCATION", "/etc/telemed/kafka-ca/bundle.pem");
        }
    }

    @Test
    void aPrivateCaFromAConfigMapAndNeverFromBoth() {
        Manifests manifests = Chart.render(Chart.minimal("kafka.securityProtocol", "SASL_SSL", "kafka.sasl.mechanism", "PLAIN",
                "secrets.kafka.saslJaasConfig", "org.apache.kafka.common.security.plain.PlainLoginModule required;",
                "kafka.tls.caConfigMap", "kube-root-ca.crt"));
        Volume ca = manifests.deployment(Chart.Service.all().stream().filter(Chart.Service::kafka).findFirst().orElseThrow())
                .getSpec().getTemplate().getSpec().getVolumes().get(1);
        assertThat(ca.getSecret()).isNull();
        assertThat(ca.getConfigMap().getName()).isEqualTo("kube-root-ca.crt");
        assertThat(ca.getConfigMap().getItems()).extracting(item -> item.getKey() + "->" + item.getPath()).containsExactly("ca.crt->ca.crt");

        assertThat(Chart.renderFailure(Chart.minimal("kafka.tls.caSecret", "a", "kafka.tls.caConfigMap", "b")))
                .contains("kafka.tls: set caSecret or caConfigMap, not both");
    }

    @Test
    void withoutACaNothingIsMounted() {
        Manifests manifests = Chart.render(Chart.minimal());
        for (Chart.Service service : Chart.Service.all()) {
            assertThat(manifests.deployment(service).getSpec().getTemplate().getSpec().getVolumes()).extracting(Volume::getName)
                    .containsExactly("tmp");
            assertThat(manifests.config(service)).doesNotContainKeys("KAFKA_SSL_TRUSTSTORE_TYPE", "KAFKA_SSL_TRUSTSTORE_LOCATION");
        }
    }

    @Test
    void theTopicsAreTheOnesTheServicesUse() throws IOException {
        Pattern topic = Pattern.compile("\"((?:care|catalogue|member|messaging)\\.events)\"|topic=(\\S+)");
        Set<String> used = new TreeSet<>();
        for (Chart.Service service : Chart.Service.all()) {
            try (var files = Files.walk(Path.of("..", service.module(), "src/main"))) {
                for (Path file : files.filter(Files::isRegularFile).toList()) {
                    topic.matcher(Files.readString(file)).results()
                            .forEach(m -> used.add(m.group(1) != null ? m.group(1) : m.group(2)));
                }
            }
        }
        assertThat(used).isEqualTo(new TreeSet<>(TOPICS));

        Job job = topicsJob(Chart.minimal("kafka.topics.create", "true", "kafka.topics.job.helmHook", "false"));
        assertThat(env(job.getSpec().getTemplate().getSpec().getContainers().get(0)).get("TOPICS"))
                .isEqualTo("care.events catalogue.events member.events messaging.events");
    }

    @Test
    void theTopicsJobIsAHookByDefaultAndOffUnlessAskedFor() {
        assertThat(Chart.render(Chart.minimal()).ofKind(Job.class)).isEmpty();
        // A hook is not part of the release's manifest, which is what helm template here prints.
        assertThat(Chart.render(Chart.minimal("kafka.topics.create", "true")).ofKind(Job.class)).isEmpty();
    }

    @Test
    void theTopicsJobCreatesEachTopicIfMissing() {
        Job job = topicsJob(Chart.minimal("kafka.topics.create", "true", "kafka.topics.job.helmHook", "false",
                "kafka.topics.partitions", "12", "kafka.topics.replicationFactor", "3",
                "kafka.topics.config.min\\.insync\\.replicas", "2"));

        assertThat(job.getMetadata().getName()).isEqualTo("telemed-kafka-topics");
        var pod = job.getSpec().getTemplate().getSpec();
        assertThat(pod.getRestartPolicy()).isEqualTo("Never");
        assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
        assertThat(pod.getSecurityContext().getRunAsUser()).isEqualTo(1000L);
        Container container = pod.getContainers().get(0);
        assertThat(container.getImage()).isEqualTo("apache/kafka:3.9.1");
        assertThat(container.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
        assertThat(container.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
        assertThat(container.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
        assertThat(container.getCommand()).hasSize(3);
        assertThat(container.getCommand().get(2))
                .contains("/opt/kafka/bin/kafka-topics.sh --bootstrap-server \"${KAFKA_BOOTSTRAP_SERVERS}\"")
                .contains("--create --if-not-exists --topic \"${topic}\"");
        assertThat(env(container)).containsExactlyInAnyOrderEntriesOf(Map.of(
                "KAFKA_BOOTSTRAP_SERVERS", "kafka-0.care.example:9092",
                "KAFKA_SECURITY_PROTOCOL", "PLAINTEXT",
                "TOPICS", "care.events catalogue.events member.events messaging.events",
                "PARTITIONS", "12",
                "REPLICATION_FACTOR", "3",
                "TOPIC_CONFIG", "--config min.insync.replicas=2",
                "LOG_DIR", "/tmp/kafka-logs",
                "KAFKA_HEAP_OPTS", "-Xmx256m"));
    }

    @Test
    void theTopicsJobLogsInWithSaslFromASecretThatExistsBeforeTheRelease() {
        Map<String, String> sasl = Chart.minimal("kafka.topics.create", "true", "kafka.topics.job.helmHook", "false",
                "kafka.securityProtocol", "SASL_SSL", "kafka.sasl.mechanism", "SCRAM-SHA-512",
                "secrets.kafka.saslJaasConfig", "org.apache.kafka.common.security.scram.ScramLoginModule required;");

        // Chart-made: a Secret of the Job's own (a hook, like the Job), since hooks run before the release's Secrets exist.
        Manifests manifests = Chart.render(sasl);
        Container container = manifests.get(Job.class, "telemed-kafka-topics").getSpec().getTemplate().getSpec().getContainers().get(0);
        assertThat(env(container)).containsEntry("KAFKA_SECURITY_PROTOCOL", "SASL_SSL").containsEntry("KAFKA_SASL_MECHANISM", "SCRAM-SHA-512");
        assertThat(jaasSecret(container)).isEqualTo("telemed-kafka-topics/sasl-jaas-config");
        assertThat(manifests.get(Secret.class, "telemed-kafka-topics").getData())
                .containsOnlyKeys("sasl-jaas-config");

        sasl.put("secrets.kafka.existingSecret", "kafka-login");
        Manifests existing = Chart.render(sasl);
        Container withExisting = existing.get(Job.class, "telemed-kafka-topics").getSpec().getTemplate().getSpec().getContainers().get(0);
        assertThat(jaasSecret(withExisting)).isEqualTo("kafka-login/sasl-jaas-config");
        assertThat(existing.find(Secret.class, "telemed-kafka-topics")).isEmpty();
    }

    private static String jaasSecret(Container container) {
        EnvVar jaas = container.getEnv().stream().filter(e -> e.getName().equals("KAFKA_SASL_JAAS_CONFIG")).findFirst().orElseThrow();
        assertThat(jaas.getValue()).isNull();
        return jaas.getValueFrom().getSecretKeyRef().getName() + "/" + jaas.getValueFrom().getSecretKeyRef().getKey();
    }

    private static Job topicsJob(Map<String, String> sets) {
        return Chart.render(sets).get(Job.class, "telemed-kafka-topics");
    }

    private static Map<String, String> env(Container container) {
        Map<String, String> env = new LinkedHashMap<>();
        for (EnvVar variable : container.getEnv()) {
            env.put(variable.getName(), variable.getValue());
        }
        return env;
    }
}
