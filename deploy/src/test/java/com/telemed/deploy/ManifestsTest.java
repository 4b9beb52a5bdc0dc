package com.telemed.deploy;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The strict reading every rendering test relies on refuses what Kubernetes would not know. */
class ManifestsTest {

    private static final String DEPLOYMENT = """
            apiVersion: apps/v1
            kind: Deployment
            metadata:
              name: d
            spec:
              %s
              selector:
                matchLabels: {app: d}
              template:
                metadata:
                  labels: {app: d}
                spec:
                  containers:
                    - name: c
                      image: i
                      %s
            """;

    @Test
    void readsAKnownDocumentIntoItsTypedClass() {
        Manifests manifests = Manifests.parse(DEPLOYMENT.formatted("replicas: 2", "ports: [{containerPort: 8080}]"));

        assertThat(manifests.get(Deployment.class, "d").getSpec().getReplicas()).isEqualTo(2);
    }

    @Test
    void refusesAMisspeltField() {
        assertThatThrownBy(() -> Manifests.parse(DEPLOYMENT.formatted("replica: 2", "ports: []")))
                .isInstanceOf(AssertionError.class)
                .hasMessage("unknown fields: [apps/v1/Deployment d.spec: [replica]]");
    }

    @Test
    void refusesAFieldDeepInTheTree() {
        assertThatThrownBy(() -> Manifests.parse(DEPLOYMENT.formatted("replicas: 1",
                "readinessProbe: {httpGet: {path: /q/health/ready, port: 8080, host_: x}}")))
                .isInstanceOf(AssertionError.class)
                .hasMessage("unknown fields: [apps/v1/Deployment d.spec.template.spec.containers[0].readinessProbe.httpGet: [host_]]");
    }

    @Test
    void refusesAKindItDoesNotExpect() {
        assertThatThrownBy(() -> Manifests.parse("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"))
                .isInstanceOf(AssertionError.class)
                .hasMessage("a document of an unexpected type: v1/Pod");
    }
}
