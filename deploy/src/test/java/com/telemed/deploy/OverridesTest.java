package com.telemed.deploy;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import org.junit.jupiter.api.Test;

import static com.telemed.deploy.Chart.Service.BILLING;
import static com.telemed.deploy.Chart.Service.CATALOGUE;
import static com.telemed.deploy.Chart.Service.GATEWAY;
import static com.telemed.deploy.Chart.Service.MEMBERS;
import static com.telemed.deploy.Chart.Service.REQUESTS;
import static com.telemed.deploy.Chart.Service.WEBHOOK;
import static org.assertj.core.api.Assertions.assertThat;

/** A setting under services.<name> changes that service only; the rest keep the shared defaults. */
class OverridesTest {

    @Test
    void replicas() {
        Manifests manifests = Chart.render(Chart.minimal("services.billing.replicas", "3"));

        for (Chart.Service service : Chart.Service.all()) {
            assertThat(manifests.deployment(service).getSpec().getReplicas()).as(service.module())
                    .isEqualTo(service == BILLING ? 3 : 1);
        }
    }

    @Test
    void resourcesMergeKeyByKeyOverTheDefaults() {
        Manifests manifests = Chart.render(Chart.minimal("services.members.resources.limits.memory", "1Gi"));

        for (Chart.Service service : Chart.Service.all()) {
            var resources = WorkloadTest.container(manifests, service).getResources();
            assertThat(resources.getLimits().get("memory")).as(service.module())
                    .isEqualTo(new Quantity(service == MEMBERS ? "1Gi" : "384Mi"));
            assertThat(resources.getLimits().get("cpu")).isEqualTo(new Quantity("1"));
            assertThat(resources.getRequests().get("memory")).isEqualTo(new Quantity("256Mi"));
            assertThat(resources.getRequests().get("cpu")).isEqualTo(new Quantity("250m"));
        }
    }

    @Test
    void imageRepositoryTagAndPullPolicy() {
        Manifests defaults = Chart.render(Chart.minimal());
        Manifests manifests = Chart.render(Chart.minimal(
                "global.image.registry", "registry.care.example",
                "services.catalogue.image.tag", "2.0.1",
                "services.catalogue.image.pullPolicy", "Always",
                "services.webhook.image.repository", "mirror/webhook"));

        for (Chart.Service service : Chart.Service.all()) {
            assertThat(WorkloadTest.container(defaults, service).getImage())
                    .isEqualTo("telemed/" + service.module() + ":1.0.0-SNAPSHOT");
            Container container = WorkloadTest.container(manifests, service);
            String expected = switch (service) {
                case CATALOGUE -> "registry.care.example/telemed/catalogue-service:2.0.1";
                case WEBHOOK -> "registry.care.example/mirror/webhook:1.0.0-SNAPSHOT";
                default -> "registry.care.example/telemed/" + service.module() + ":1.0.0-SNAPSHOT";
            };
            assertThat(container.getImage()).isEqualTo(expected);
            assertThat(container.getImagePullPolicy()).isEqualTo(service == CATALOGUE ? "Always" : "IfNotPresent");
        }
    }

    @Test
    void aSharedTagUnlessAServiceNamesItsOwn() {
        Manifests manifests = Chart.render(Chart.minimal("global.image.tag", "1.4.0", "services.gateway.image.tag", "1.4.1"));

        for (Chart.Service service : Chart.Service.all()) {
            assertThat(WorkloadTest.container(manifests, service).getImage())
                    .isEqualTo("telemed/" + service.module() + (service == GATEWAY ? ":1.4.1" : ":1.4.0"));
        }
    }

    @Test
    void autoscalingForOneService() {
        Manifests manifests = Chart.render(Chart.minimal("services.webhook.autoscaling.enabled", "true",
                "services.webhook.autoscaling.maxReplicas", "9"));

        assertThat(manifests.ofKind(HorizontalPodAutoscaler.class)).singleElement().satisfies(hpa -> {
            assertThat(hpa.getMetadata().getName()).isEqualTo(WEBHOOK.resourceName());
            assertThat(hpa.getSpec().getMinReplicas()).isEqualTo(2);
            assertThat(hpa.getSpec().getMaxReplicas()).isEqualTo(9);
        });
        assertThat(manifests.deployment(WEBHOOK).getSpec().getReplicas()).isNull();
        assertThat(manifests.deployment(REQUESTS).getSpec().getReplicas()).isEqualTo(1);
    }

    @Test
    void falseOverridesADefaultTrue() {
        Manifests manifests = Chart.render(Chart.minimal("services.gateway.podDisruptionBudget.enabled", "false"));

        assertThat(manifests.find(PodDisruptionBudget.class, GATEWAY.resourceName())).isEmpty();
        assertThat(manifests.ofKind(PodDisruptionBudget.class)).hasSize(7);
    }

    @Test
    void extraEnvironmentAndDatabaseServerPerService() {
        Manifests manifests = Chart.render(Chart.minimal(
                "services.requests.env.PHARMACY_TIMEOUT", "20s",
                "services.billing.database.host", "billing-pg.care.example",
                "services.billing.database.port", "6432",
                "services.billing.database.sslmode", "verify-full"));

        assertThat(manifests.config(REQUESTS)).containsEntry("PHARMACY_TIMEOUT", "20s");
        assertThat(manifests.config(MEMBERS)).doesNotContainKey("PHARMACY_TIMEOUT");
        assertThat(manifests.config(BILLING)).containsEntry("QUARKUS_DATASOURCE_JDBC_URL",
                "jdbc:postgresql://billing-pg.care.example:6432/billing?ApplicationName=billing-service&sslmode=verify-full");
        assertThat(manifests.config(CATALOGUE)).containsEntry("QUARKUS_DATASOURCE_JDBC_URL",
                "jdbc:postgresql://pg.care.example:5432/catalogue?ApplicationName=catalogue-service&sslmode=prefer");
    }
}
