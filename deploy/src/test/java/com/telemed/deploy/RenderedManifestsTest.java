package com.telemed.deploy;

import io.fabric8.kubernetes.api.model.HasMetadata;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each values file renders into documents that all read into fabric8's typed model with no unknown
 * field (Manifests), and into exactly the objects its settings call for.
 */
class RenderedManifestsTest {

    @Test
    void valuesYaml() {
        Manifests manifests = Chart.render(Chart.minimal());

        assertThat(kinds(manifests)).containsExactlyEntriesOf(new TreeMap<>(Map.of(
                "ConfigMap", 8L, "Deployment", 8L, "NetworkPolicy", 8L, "PodDisruptionBudget", 8L,
                // Five credentials and a database login per service but web-service.
                "Secret", 12L, "Service", 8L, "ServiceAccount", 8L)));
    }

    @Test
    void sandbox() {
        Manifests manifests = Chart.render(Chart.SECRETS, Chart.SANDBOX);

        // The topics Job is a hook (pre-install, pre-upgrade): not part of the release's manifest.
        assertThat(kinds(manifests)).containsExactlyEntriesOf(new TreeMap<>(Map.of(
                "ConfigMap", 8L, "Deployment", 8L, "Ingress", 1L, "NetworkPolicy", 8L,
                "PodDisruptionBudget", 8L, "Secret", 12L, "Service", 8L, "ServiceAccount", 8L)));
    }

    @Test
    void production() {
        Manifests manifests = Chart.render(Map.of(), Chart.PRODUCTION);

        // Every credential is an existing Secret: the chart creates none. Services: each service's http one and,
        // for its ServiceMonitor, its management one.
        assertThat(kinds(manifests)).containsExactlyEntriesOf(new TreeMap<>(Map.of(
                "ConfigMap", 8L, "Deployment", 8L, "HorizontalPodAutoscaler", 8L, "Ingress", 1L,
                "NetworkPolicy", 8L, "PodDisruptionBudget", 8L, "Service", 16L, "ServiceAccount", 8L,
                "ServiceMonitor", 8L)));
    }

    @Test
    void everyObjectOfAServiceIsNamedAfterItsModuleAndCarriesItsComponentLabel() {
        Manifests manifests = Chart.render(Chart.minimal());

        for (Chart.Service service : Chart.Service.all()) {
            for (Class<? extends HasMetadata> kind : Kinds.PER_SERVICE) {
                HasMetadata resource = manifests.get(kind, service.resourceName());
                assertThat(resource.getMetadata().getLabels())
                        .containsEntry("app.kubernetes.io/name", "telemed")
                        .containsEntry("app.kubernetes.io/instance", Chart.RELEASE)
                        .containsEntry("app.kubernetes.io/component", service.module())
                        .containsEntry("app.kubernetes.io/part-of", "telemed")
                        .containsEntry("app.kubernetes.io/managed-by", "Helm");
            }
        }
    }

    private static TreeMap<String, Long> kinds(Manifests manifests) {
        TreeMap<String, Long> counts = new TreeMap<>();
        manifests.all().forEach(r -> counts.merge(r.getKind(), 1L, Long::sum));
        return counts;
    }
}
