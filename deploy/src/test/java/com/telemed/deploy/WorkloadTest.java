package com.telemed.deploy;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.autoscaling.v2.MetricSpec;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** What every service's pods get: probes, resources, security, graceful shutdown, disruption budget, scaling. */
class WorkloadTest {

    private static final Manifests DEFAULTS = Chart.render(Chart.minimal());
    private static final Manifests SANDBOX = Chart.render(Chart.SECRETS, Chart.SANDBOX);
    private static final Manifests PRODUCTION = Chart.render(Map.of(), Chart.PRODUCTION);

    @Test
    void probesOnQuarkusHealthEndpoints() {
        for (Manifests manifests : List.of(DEFAULTS, SANDBOX, PRODUCTION)) {
            for (Chart.Service service : Chart.Service.all()) {
                Container container = container(manifests, service);
                assertThat(container.getName()).isEqualTo(service.module());
                assertThat(container.getPorts()).hasSize(2);
                assertThat(container.getPorts().get(0)).satisfies(port -> {
                    assertThat(port.getName()).isEqualTo("http");
                    assertThat(port.getContainerPort()).isEqualTo(8080);
                });
                // Health and metrics: the management interface, on every interface of the pod, never on http.
                assertThat(container.getPorts().get(1)).satisfies(port -> {
                    assertThat(port.getName()).isEqualTo("management");
                    assertThat(port.getContainerPort()).isEqualTo(9000);
                    assertThat(port.getProtocol()).isEqualTo("TCP");
                });
                assertProbe(container.getStartupProbe(), "/q/health/started", 5, 36);
                assertProbe(container.getLivenessProbe(), "/q/health/live", 10, 3);
                assertProbe(container.getReadinessProbe(), "/q/health/ready", 5, 2);
                assertThat(manifests.config(service)).containsEntry("QUARKUS_HTTP_PORT", "8080")
                        .containsEntry("QUARKUS_MANAGEMENT_PORT", "9000").containsEntry("QUARKUS_MANAGEMENT_HOST", "0.0.0.0");
            }
        }
    }

    /** Issue #39: web-service, the pages, keeps nothing: no datasource, no database login, no Kafka (issue #41: its one secret of its own seals the console's cookie). */
    @Test
    void webServiceHasNoDatabaseAndNoKafka() {
        for (Manifests manifests : List.of(DEFAULTS, SANDBOX, PRODUCTION)) {
            Map<String, String> config = manifests.config(Chart.Service.WEB);
            assertThat(config.keySet()).noneMatch(key -> key.startsWith("QUARKUS_DATASOURCE_") || key.startsWith("KAFKA_"));
            assertThat(config).containsEntry("SERVICE_URLS_REQUESTS", "http://telemed-requests-service:80")
                    .containsEntry("SERVICE_URLS_GATEWAY", "http://telemed-gateway:80");
            // values-production.yaml signs people in to the console with OpenID Connect (identity.oidc.consoleClientId).
            List<String> secrets = manifests == PRODUCTION
                    ? List.of("PLATFORM_TRUST_KEY", "WEB_CONSOLE_SESSION_KEY", "WEB_CONSOLE_OIDC_CLIENT_SECRET")
                    : List.of("PLATFORM_TRUST_KEY", "WEB_CONSOLE_SESSION_KEY");
            assertThat(container(manifests, Chart.Service.WEB).getEnv()).extracting(EnvVar::getName)
                    .containsExactlyElementsOf(secrets);
            assertThat(manifests.config(Chart.Service.GATEWAY)).containsEntry("SERVICE_URLS_WEB", "http://telemed-web-service:80");
        }
        assertThat(Chart.renderFailure(Chart.minimal("services.web.database.name", "web")))
                .startsWith(SchemaTest.SCHEMA_FAILURE).contains("- at '/services/web': additional properties 'database' not allowed");
    }

    /** The non-heap caps ./stack's services run with (testkit's PlatformOptions.DEFAULT_JVM_OPTIONS), after the heap's share. */
    private static final String NON_HEAP = " -XX:+UseSerialGC -XX:MaxMetaspaceSize=160m -XX:ReservedCodeCacheSize=64m -Xss512k"
            + " -XX:MaxDirectMemorySize=64m";

    @Test
    void requestsAndLimitsOfEveryService() {
        for (Chart.Service service : Chart.Service.all()) {
            // bench/footprint.sh's figures (issue 44): 40 % of 384Mi is the benchmarks' heap; production keeps 70 % for load.
            assertThat(DEFAULTS.config(service)).containsEntry("JAVA_TOOL_OPTIONS", "-XX:MaxRAMPercentage=40.0" + NON_HEAP)
                    .containsEntry("MALLOC_ARENA_MAX", "2");
            assertThat(SANDBOX.config(service)).containsEntry("JAVA_TOOL_OPTIONS", "-XX:MaxRAMPercentage=40.0" + NON_HEAP);
            assertThat(PRODUCTION.config(service)).containsEntry("JAVA_TOOL_OPTIONS", "-XX:MaxRAMPercentage=70.0" + NON_HEAP)
                    .containsEntry("MALLOC_ARENA_MAX", "2");
            assertResources(container(DEFAULTS, service).getResources(), "250m", "256Mi", "1", "384Mi");
            assertResources(container(SANDBOX, service).getResources(), "100m", "256Mi", "1", "384Mi");
            if (service == Chart.Service.MESSAGING) {
                assertResources(container(PRODUCTION, service).getResources(), "500m", "1Gi", "2", "1536Mi");
            } else {
                assertResources(container(PRODUCTION, service).getResources(), "500m", "768Mi", "2", "1Gi");
            }
        }
    }

    @Test
    void podsRunAsAFixedNonRootUserOnAReadOnlyRootWithTmpWritable() {
        for (Manifests manifests : List.of(DEFAULTS, SANDBOX, PRODUCTION)) {
            for (Chart.Service service : Chart.Service.all()) {
                PodSpec pod = manifests.deployment(service).getSpec().getTemplate().getSpec();
                assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
                assertThat(pod.getSecurityContext().getRunAsUser()).isEqualTo(185L);
                assertThat(pod.getSecurityContext().getRunAsGroup()).isEqualTo(185L);
                assertThat(pod.getSecurityContext().getFsGroup()).isEqualTo(185L);
                assertThat(pod.getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
                assertThat(pod.getAutomountServiceAccountToken()).isFalse();
                assertThat(pod.getEnableServiceLinks()).isFalse();
                assertThat(pod.getServiceAccountName()).isEqualTo(service.resourceName());
                ServiceAccount account = manifests.get(ServiceAccount.class, service.resourceName());
                assertThat(account.getAutomountServiceAccountToken()).isFalse();

                Container container = pod.getContainers().get(0);
                var security = container.getSecurityContext();
                assertThat(security.getRunAsNonRoot()).isTrue();
                assertThat(security.getRunAsUser()).isEqualTo(185L);
                assertThat(security.getAllowPrivilegeEscalation()).isFalse();
                assertThat(security.getReadOnlyRootFilesystem()).isTrue();
                assertThat(security.getPrivileged()).isFalse();
                assertThat(security.getCapabilities().getDrop()).containsExactly("ALL");
                assertThat(security.getCapabilities().getAdd()).isEmpty();
                assertThat(security.getSeccompProfile().getType()).isEqualTo("RuntimeDefault");

                assertThat(container.getVolumeMounts()).singleElement().satisfies(mount -> {
                    assertThat(mount.getName()).isEqualTo("tmp");
                    assertThat(mount.getMountPath()).isEqualTo("/tmp");
                    assertThat(mount.getReadOnly()).isNull();
                });
                assertThat(pod.getVolumes()).singleElement().satisfies(volume -> {
                    assertThat(volume.getName()).isEqualTo("tmp");
                    assertThat(volume.getEmptyDir()).isNotNull();
                });
                assertThat(manifests.config(service))
                        .containsEntry("QUARKUS_HTTP_BODY_UPLOADS_DIRECTORY", "/tmp/uploads");
            }
        }
        // Attachments (10 MB each) pass through messaging-service's /tmp.
        assertThat(tmpLimit(DEFAULTS, Chart.Service.MESSAGING)).isEqualTo(new Quantity("1Gi"));
        assertThat(tmpLimit(DEFAULTS, Chart.Service.GATEWAY)).isEqualTo(new Quantity("256Mi"));
        assertThat(tmpLimit(PRODUCTION, Chart.Service.MESSAGING)).isEqualTo(new Quantity("2Gi"));
        // Issue #38: the uploads messaging-service lets in at once, 11 MB each on /tmp, never fill it.
        for (Manifests manifests : List.of(DEFAULTS, SANDBOX, PRODUCTION)) {
            long inFlight = Long.parseLong(manifests.config(Chart.Service.MESSAGING).get("MESSAGING_UPLOADS_MAX_IN_FLIGHT"));
            assertThat(inFlight).isEqualTo(64);
            assertThat(BigDecimal.valueOf(inFlight * 11L * 1024 * 1024))
                    .isLessThan(Quantity.getAmountInBytes(tmpLimit(manifests, Chart.Service.MESSAGING)));
        }
    }

    @Test
    void terminationGraceOutlastsQuarkusShutdownDelayPlusTimeout() {
        assertShutdown(DEFAULTS, 35, "5s", "20s");
        assertShutdown(SANDBOX, 35, "5s", "20s");
        assertShutdown(PRODUCTION, 50, "10s", "30s");
    }

    @Test
    void aRollingUpdateStartsTheNewPodBeforeStoppingAnOldOne() {
        for (Chart.Service service : Chart.Service.all()) {
            var strategy = PRODUCTION.deployment(service).getSpec().getStrategy();
            assertThat(strategy.getType()).isEqualTo("RollingUpdate");
            assertThat(strategy.getRollingUpdate().getMaxUnavailable()).isEqualTo(new IntOrString(0));
            assertThat(strategy.getRollingUpdate().getMaxSurge()).isEqualTo(new IntOrString(1));
        }
    }

    @Test
    void preStopSleepIsAddedWhenAskedAndCountsAgainstTheGracePeriod() {
        Manifests manifests = Chart.render(Chart.minimal("defaults.shutdown.preStopSleepSeconds", "5"));
        for (Chart.Service service : Chart.Service.all()) {
            assertThat(container(manifests, service).getLifecycle().getPreStop().getSleep().getSeconds()).isEqualTo(5L);
        }
        assertThat(container(DEFAULTS, Chart.Service.GATEWAY).getLifecycle()).isNull();

        assertThat(Chart.renderFailure(Chart.minimal("services.billing.shutdown.preStopSleepSeconds", "10")))
                .contains("services.billing: shutdown.delaySeconds + shutdown.timeoutSeconds"
                        + " + shutdown.preStopSleepSeconds (35) must be below terminationGracePeriodSeconds (35)");
    }

    @Test
    void everyServiceHasADisruptionBudgetOverItsOwnPods() {
        for (Chart.Service service : Chart.Service.all()) {
            PodDisruptionBudget defaults = DEFAULTS.get(PodDisruptionBudget.class, service.resourceName());
            assertThat(defaults.getSpec().getMinAvailable()).isEqualTo(new IntOrString(1));
            assertThat(defaults.getSpec().getMaxUnavailable()).isNull();
            assertThat(defaults.getSpec().getSelector().getMatchLabels())
                    .isEqualTo(DEFAULTS.deployment(service).getSpec().getSelector().getMatchLabels())
                    .containsExactlyInAnyOrderEntriesOf(Map.of("app.kubernetes.io/name", "telemed",
                            "app.kubernetes.io/instance", Chart.RELEASE,
                            "app.kubernetes.io/component", service.module()));

            PodDisruptionBudget sandbox = SANDBOX.get(PodDisruptionBudget.class, service.resourceName());
            assertThat(sandbox.getSpec().getMaxUnavailable()).isEqualTo(new IntOrString(1));
            assertThat(sandbox.getSpec().getMinAvailable()).isNull();

            int production = switch (service) {
                case GATEWAY, REQUESTS -> 2;
                default -> 1;
            };
            assertThat(PRODUCTION.get(PodDisruptionBudget.class, service.resourceName()).getSpec().getMinAvailable())
                    .isEqualTo(new IntOrString(production));
        }
    }

    @Test
    void fixedReplicasWithoutAutoscalingAndAnHpaInsteadWithIt() {
        for (Chart.Service service : Chart.Service.all()) {
            assertThat(DEFAULTS.deployment(service).getSpec().getReplicas()).isEqualTo(1);
            assertThat(DEFAULTS.find(HorizontalPodAutoscaler.class, service.resourceName())).isEmpty();

            // The HPA owns the replica count: the Deployment leaves it unset, so an upgrade never resets it.
            assertThat(PRODUCTION.deployment(service).getSpec().getReplicas()).isNull();
            HorizontalPodAutoscaler hpa = PRODUCTION.get(HorizontalPodAutoscaler.class, service.resourceName());
            assertThat(hpa.getSpec().getScaleTargetRef().getApiVersion()).isEqualTo("apps/v1");
            assertThat(hpa.getSpec().getScaleTargetRef().getKind()).isEqualTo("Deployment");
            assertThat(hpa.getSpec().getScaleTargetRef().getName()).isEqualTo(service.resourceName());
            int[] range = switch (service) {
                case GATEWAY -> new int[] {3, 10};
                case REQUESTS -> new int[] {3, 8};
                default -> new int[] {2, 6};
            };
            assertThat(hpa.getSpec().getMinReplicas()).isEqualTo(range[0]);
            assertThat(hpa.getSpec().getMaxReplicas()).isEqualTo(range[1]);
            assertThat(hpa.getSpec().getMetrics()).singleElement().satisfies(metric -> {
                assertThat(metric.getType()).isEqualTo("Resource");
                assertThat(metric.getResource().getName()).isEqualTo("cpu");
                assertThat(metric.getResource().getTarget().getType()).isEqualTo("Utilization");
                assertThat(metric.getResource().getTarget().getAverageUtilization()).isEqualTo(70);
            });
        }
    }

    @Test
    void aMemoryTargetIsASecondMetric() {
        Manifests manifests = Chart.render(Chart.minimal("defaults.autoscaling.enabled", "true",
                "defaults.autoscaling.targetMemoryUtilizationPercentage", "80"));

        List<MetricSpec> metrics = manifests.get(HorizontalPodAutoscaler.class,
                Chart.Service.WEBHOOK.resourceName()).getSpec().getMetrics();
        assertThat(metrics).extracting(m -> m.getResource().getName()).containsExactly("cpu", "memory");
        assertThat(metrics.get(0).getResource().getTarget().getAverageUtilization()).isEqualTo(75);
        assertThat(metrics.get(1).getResource().getTarget().getAverageUtilization()).isEqualTo(80);
    }

    private static void assertShutdown(Manifests manifests, long grace, String delay, String timeout) {
        for (Chart.Service service : Chart.Service.all()) {
            Deployment deployment = manifests.deployment(service);
            Map<String, String> config = manifests.config(service);
            assertThat(config).containsEntry("QUARKUS_SHUTDOWN_DELAY", delay).containsEntry("QUARKUS_SHUTDOWN_TIMEOUT", timeout);
            long drain = Duration.parse("PT" + delay.toUpperCase()).plus(Duration.parse("PT" + timeout.toUpperCase())).toSeconds();
            assertThat(deployment.getSpec().getTemplate().getSpec().getTerminationGracePeriodSeconds())
                    .isEqualTo(grace)
                    .isGreaterThan(drain);
            assertThat(container(manifests, service).getEnvFrom()).singleElement()
                    .satisfies(from -> assertThat(from.getConfigMapRef().getName()).isEqualTo(service.resourceName()));
        }
    }

    private static Quantity tmpLimit(Manifests manifests, Chart.Service service) {
        return manifests.deployment(service).getSpec().getTemplate().getSpec().getVolumes().get(0).getEmptyDir().getSizeLimit();
    }

    static Container container(Manifests manifests, Chart.Service service) {
        List<Container> containers = manifests.deployment(service).getSpec().getTemplate().getSpec().getContainers();
        assertThat(containers).hasSize(1);
        return containers.get(0);
    }

    private static void assertProbe(Probe probe, String path, int period, int failures) {
        assertThat(probe.getHttpGet().getPath()).isEqualTo(path);
        assertThat(probe.getHttpGet().getPort()).isEqualTo(new IntOrString("management"));
        assertThat(probe.getPeriodSeconds()).isEqualTo(period);
        assertThat(probe.getFailureThreshold()).isEqualTo(failures);
        assertThat(probe.getTimeoutSeconds()).isEqualTo(3);
    }

    private static void assertResources(ResourceRequirements resources, String cpuRequest, String memoryRequest,
                                        String cpuLimit, String memoryLimit) {
        assertThat(resources.getRequests()).containsExactlyInAnyOrderEntriesOf(Map.of(
                "cpu", new Quantity(cpuRequest), "memory", new Quantity(memoryRequest)));
        assertThat(resources.getLimits()).containsExactlyInAnyOrderEntriesOf(Map.of(
                "cpu", new Quantity(cpuLimit), "memory", new Quantity(memoryLimit)));
    }
}
