package com.telemed.deploy;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The release notes say how to reach the gateway, however it is exposed, and where the operator key is. */
class NotesTest {

    private static final String OPERATOR_KEY = """
            The operator key (x-ops-key) is in Secret %1$s:

              kubectl -n care get secret %1$s -o jsonpath='{.data.ops-api-key}' | base64 -d
            """;

    @Test
    void aClusterIpGatewayIsReachedByPortForward() {
        String notes = Chart.notes(Chart.minimal());

        assertThat(notes)
                .startsWith("The telemed platform (sandbox) is installed as release telemed in namespace care.\n")
                .contains("""
                        Reach the gateway (the only exposed service):
                          kubectl -n care port-forward service/telemed-gateway 8080:80
                          then http://127.0.0.1:8080/
                        """)
                .contains(OPERATOR_KEY.formatted("telemed-ops-api-key"));
    }

    @Test
    void aLoadBalancerGatewayByItsAddress() {
        String notes = Chart.notes(Chart.minimal("services.gateway.service.type", "LoadBalancer"));

        assertThat(notes).contains("""
                  kubectl -n care get service telemed-gateway -o jsonpath='{.status.loadBalancer.ingress[0]}'
                  then http://<that address>:80/
                """);
    }

    @Test
    void productionThroughItsIngressWithTheKeyInTheExistingSecret() {
        String notes = Chart.notes(Map.of("secrets.opsApiKey.existingSecret", "ops-key-from-vault"), Chart.PRODUCTION);

        assertThat(notes)
                .startsWith("The telemed platform (production) is installed as release telemed in namespace care.\n")
                .contains("""
                        Reach the gateway (the only exposed service):
                          https://api.telemed.example/
                        """)
                .contains(OPERATOR_KEY.formatted("ops-key-from-vault"));
    }
}
